/**
 * What of a tool is searchable, split into the fields the BM25F index weighs separately.
 *
 * - name: the tool name split into words (`read_text_file` → read text file, `getUserProfile` → get user profile).
 * - title: `title`, else `annotations.title`.
 * - description: the tool description.
 * - parameters: parameter names and descriptions from `inputSchema.properties`, including one level of nested
 *   objects and array items, and short string `enum` values (`mode: driving | walking | transit`).
 * - server: the server id, its description from the config, category and tags.
 * - translated: English for CJK text in the name, title and description, from the tool vocabulary, so a tool
 *   described in Chinese or Japanese is found by English words.
 *
 * Defensive throughout: tools come from arbitrary backends, so any field may be missing or of the wrong type.
 */
import { isRecord, type ToolInfo } from '@search-mcp/shared';
import { containsCjk } from '../text/cjk-segmenter.js';
import { findVocabularyMatches } from '../text/japanese-query-expansion.js';
import { tokenize } from '../text/text-tokenizer.js';

export const SEARCH_FIELDS = ['name', 'title', 'description', 'parameters', 'server', 'translated'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

const MAX_PROPERTIES = 64;
const MAX_ENUM_VALUES = 24;
const MAX_ENUM_VALUE_LENGTH = 40;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function addSchemaTerms(schema: unknown, depth: number, budget: { left: number }, sink: ToolFieldSink): void {
  if (!isRecord(schema) || depth > 2) return;
  const properties = schema['properties'];
  if (!isRecord(properties)) return;
  // for…in rather than Object.entries: no pair array per property (this runs for every property of 50,000 tools).
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    if (budget.left-- <= 0) return;
    sink.text(name);
    const property = properties[name];
    if (!isRecord(property)) continue;
    sink.text(property['title']);
    sink.text(property['description']);
    const values = property['enum'];
    if (Array.isArray(values) && values.length <= MAX_ENUM_VALUES) {
      for (const value of values) {
        if (typeof value === 'string' && value.length <= MAX_ENUM_VALUE_LENGTH) sink.text(value);
      }
    }
    addSchemaTerms(property, depth + 1, budget, sink);
    const items = property['items'];
    if (isRecord(items)) {
      sink.text(items['description']);
      addSchemaTerms(items, depth + 1, budget, sink);
    }
  }
}

/** Writes the texts of a parameter schema to `sink` (`text` for each), as deep and as many as the field indexes. */
export function writeSchemaTerms(schema: unknown, sink: ToolFieldSink): void {
  addSchemaTerms(schema, 0, { left: MAX_PROPERTIES }, sink);
}

/** The English terms of the vocabulary concepts found in CJK text (empty for text without CJK). */
export function translatedTerms(source: string, out: string[] = []): string[] {
  if (!containsCjk(source)) return out;
  for (const match of findVocabularyMatches(source)) tokenize(match.english, out);
  return out;
}

export interface ToolFieldOptions {
  /** Add the `translated` field (CJK tool text → English). */
  translate: boolean;
}

/** Where a tool's fields go: the terms of each text, field by field (`tool-documents.ts` encodes them). */
export interface ToolFieldSink {
  /** The terms of a text (anything but a non-empty string has none) join the current field. */
  text(value: unknown): void;
  /** The English of the vocabulary concepts in a CJK text (`translatedTerms`) joins the current field. */
  translation(value: string): void;
  /**
   * The texts of a parameter schema (`writeSchemaTerms`) join the current field. A sink may remember them per schema
   * object: one server's tools listed under several ids share their schema objects.
   */
  schema(schema: unknown): void;
  /** The current field is complete; the next begins. */
  endField(): void;
}

/** Writes a tool's fields to `sink`, one per field of SEARCH_FIELDS, in that order. */
export function writeToolFields(tool: ToolInfo, options: ToolFieldOptions, sink: ToolFieldSink): void {
  sink.text(tool.toolName);
  sink.endField();
  const titleText = text(tool.title) || text(tool.annotations?.title);
  sink.text(titleText);
  sink.endField();
  sink.text(tool.description);
  sink.endField();

  sink.schema(tool.inputSchema);
  sink.endField();

  sink.text(tool.serverName);
  sink.text(tool.serverDescription);
  sink.text(tool.category);
  if (Array.isArray(tool.tags)) for (const tag of tool.tags) sink.text(tag);
  sink.endField();

  if (options.translate) {
    sink.translation(text(tool.toolName));
    sink.translation(titleText);
    sink.translation(text(tool.description));
  }
  sink.endField();
}
