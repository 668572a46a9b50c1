/**
 * The analyzed documents of the tool objects a provider has indexed, kept with each object (a WeakMap), so the index
 * of a changed tool set tokenizes only the tools it has not seen: a new server's tools, a tool that changed.
 *
 * A tool object is taken as a value: once indexed, the same object is assumed to hold the same text. The catalog
 * builds new objects when a source's tools change (packages/catalog/README.md, "Search providers"); a caller that
 * edits a tool in place must pass a new object instead.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { tokenize } from '../text/text-tokenizer.js';
import { type EncodedDocument, TermDictionary } from './term-dictionary.js';
import {
  SEARCH_FIELDS,
  type ToolFieldOptions,
  type ToolFieldSink,
  translatedTerms,
  writeToolFields,
} from './tool-search-fields.js';

/** A malformed entry (null, a string) has no terms; it still takes its document slot. */
const EMPTY_DOCUMENT: EncodedDocument = SEARCH_FIELDS.map(() => SEARCH_FIELDS.length);

export class ToolDocuments {
  readonly dictionary = new TermDictionary();
  private readonly documents = new WeakMap<object, EncodedDocument>();

  constructor(private readonly options: ToolFieldOptions) {}

  /** A reader for one index build: its memo of texts lives as long as the build. */
  reader(): (tool: unknown) => EncodedDocument {
    const writer = new DocumentWriter(this.dictionary);
    return (tool) => {
      if (tool === null || typeof tool !== 'object') return EMPTY_DOCUMENT;
      let document = this.documents.get(tool);
      if (document === undefined) {
        writeToolFields(tool as ToolInfo, this.options, writer);
        document = writer.finish();
        this.documents.set(tool, document);
      }
      return document;
    };
  }
}

const NO_TERMS: readonly number[] = [];

/** A new document's field-end slots (a packed array of small integers, which `push` keeps packed). */
function fieldSlots(): number[] {
  return SEARCH_FIELDS.map(() => 0);
}

/**
 * Encodes tools one after the other. It remembers the term numbers of each distinct text: catalogs repeat texts (the
 * same parameter descriptions across a server's tools, one server's tools under several ids), and a Map lookup of a
 * string costs far less than tokenizing it again.
 */
class DocumentWriter implements ToolFieldSink {
  private readonly texts = new Map<string, readonly number[]>();
  private readonly translations = new Map<string, readonly number[]>();
  /** The document being written: a slot per field end, then the term numbers. */
  private document = fieldSlots();
  private field = 0;

  constructor(private readonly dictionary: TermDictionary) {}

  text(value: unknown): void {
    if (typeof value !== 'string' || value.length === 0) return;
    let ids = this.texts.get(value);
    if (ids === undefined) {
      ids = this.encode(tokenize(value));
      this.texts.set(value, ids);
    }
    this.append(ids);
  }

  translation(value: string): void {
    if (value.length === 0) return;
    let ids = this.translations.get(value);
    if (ids === undefined) {
      ids = this.encode(translatedTerms(value));
      this.translations.set(value, ids);
    }
    this.append(ids);
  }

  endField(): void {
    this.document[this.field++] = this.document.length;
  }

  /** The document of the tool written since the last call. */
  finish(): EncodedDocument {
    const document = this.document;
    while (this.field < SEARCH_FIELDS.length) document[this.field++] = document.length;
    this.document = fieldSlots();
    this.field = 0;
    return document;
  }

  private encode(terms: readonly string[]): readonly number[] {
    if (terms.length === 0) return NO_TERMS;
    return terms.map((term) => this.dictionary.id(term));
  }

  private append(ids: readonly number[]): void {
    for (let index = 0; index < ids.length; index++) this.document.push(ids[index] as number);
  }
}
