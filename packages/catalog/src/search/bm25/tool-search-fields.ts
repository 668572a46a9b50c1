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

function addSchemaTerms(schema: unknown, depth: number, out: string[], budget: { left: number }): void {
  if (!isRecord(schema) || depth > 2) return;
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      if (budget.left-- <= 0) return;
      tokenize(name, out);
      if (!isRecord(property)) continue;
      tokenize(text(property['title']), out);
      tokenize(text(property['description']), out);
      const values = property['enum'];
      if (Array.isArray(values) && values.length <= MAX_ENUM_VALUES) {
        for (const value of values) {
          if (typeof value === 'string' && value.length <= MAX_ENUM_VALUE_LENGTH) tokenize(value, out);
        }
      }
      addSchemaTerms(property, depth + 1, out, budget);
      const items = property['items'];
      if (isRecord(items)) {
        tokenize(text(items['description']), out);
        addSchemaTerms(items, depth + 1, out, budget);
      }
    }
  }
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

/** Term lists of a tool, one per field of SEARCH_FIELDS, in that order. */
export function toolFieldTerms(tool: ToolInfo, options: ToolFieldOptions): string[][] {
  const name = tokenize(text(tool.toolName));
  const titleText = text(tool.title) || text(tool.annotations?.title);
  const title = tokenize(titleText);
  const descriptionText = text(tool.description);
  const description = tokenize(descriptionText);

  const parameters: string[] = [];
  addSchemaTerms(tool.inputSchema, 0, parameters, { left: MAX_PROPERTIES });

  const server = tokenize(text(tool.serverName));
  tokenize(text(tool.serverDescription), server);
  tokenize(text(tool.category), server);
  if (Array.isArray(tool.tags)) for (const tag of tool.tags) tokenize(text(tag), server);

  const translated: string[] = [];
  if (options.translate) {
    translatedTerms(text(tool.toolName), translated);
    translatedTerms(titleText, translated);
    translatedTerms(descriptionText, translated);
  }
  return [name, title, description, parameters, server, translated];
}
