/**
 * The analyzed documents of the tool objects a provider has indexed, kept with each object (a WeakMap), so the index
 * of a changed tool set tokenizes only the tools it has not seen: a new server's tools, a tool that changed.
 *
 * A tool object is taken as a value: once indexed, the same object is assumed to hold the same text. The catalog
 * builds new objects when a source's tools change (packages/catalog/README.md, "Search providers"); a caller that
 * edits a tool in place must pass a new object instead.
 *
 * The documents of one build live in one Int32Array (about 8 MB at 50,000 tools), which stays alive while any of
 * its tools is kept.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { tokenize } from '../text/text-tokenizer.js';
import { IntList } from './growable-arrays.js';
import { type EncodedDocuments, TermDictionary } from './term-dictionary.js';
import {
  SEARCH_FIELDS,
  type ToolFieldOptions,
  type ToolFieldSink,
  translatedTerms,
  writeSchemaTerms,
  writeToolFields,
} from './tool-search-fields.js';

/** The documents one build encoded: its buffer while it runs, then a trimmed copy. */
interface Block {
  data: Int32Array;
}

interface DocumentPlace {
  block: Block;
  start: number;
}

/** A malformed entry (null, a string) has no terms; it still takes its document slot. */
const EMPTY_DOCUMENT: EncodedDocuments = SEARCH_FIELDS.map(() => SEARCH_FIELDS.length);

export class ToolDocuments {
  readonly dictionary = new TermDictionary();
  /** Postings per tool of the last index built from these documents: the size of the next build's arrays. */
  postingsPerTool = 20;
  private readonly places = new WeakMap<object, DocumentPlace>();

  constructor(private readonly options: ToolFieldOptions) {}

  /** A reader for one index build; call its `finish` when the build is over. */
  reader(): DocumentReader {
    return new DocumentReader(this.dictionary, this.places, this.options);
  }
}

/**
 * Finds or writes the document of each tool of one build: after `read`, the document is at `start` of `data`. It
 * remembers where the term numbers of each distinct text were first written: catalogs repeat texts (the same
 * parameter descriptions across a server's tools, one server's tools under several ids), and a Map lookup of a
 * string and a copy of a few numbers cost far less than tokenizing it again. It remembers the parameters field of
 * each schema object the same way: the tools of one server listed under several ids share their schema objects, and
 * one lookup replaces a walk of the schema and a lookup per text.
 *
 * Nothing is allocated per text or per schema (a span is two numbers in `spans`, its Map value a small integer):
 * objects that outlive the young generation are what makes the garbage collector slow on a busy machine.
 */
export class DocumentReader implements ToolFieldSink {
  data: EncodedDocuments = EMPTY_DOCUMENT;
  start = 0;
  private readonly block: Block = { data: new Int32Array(0) };
  private readonly buffer: IntList;
  /** Span number → its start and end in `buffer`, at 2n and 2n + 1. */
  private readonly spans = new IntList(1 << 14);
  private readonly texts = new Map<string, number>();
  private readonly translations = new Map<string, number>();
  /** This build only: a schema object is not assumed to keep its content from one build to the next. */
  private readonly schemas = new Map<object, number>();
  private documentStart = 0;
  private field = 0;

  constructor(
    private readonly dictionary: TermDictionary,
    private readonly places: WeakMap<object, DocumentPlace>,
    private readonly options: ToolFieldOptions,
    capacity = 1 << 16,
  ) {
    this.buffer = new IntList(capacity);
  }

  read(tool: unknown): void {
    if (tool === null || typeof tool !== 'object') {
      this.data = EMPTY_DOCUMENT;
      this.start = 0;
      return;
    }
    let place = this.places.get(tool);
    if (place === undefined) {
      place = { block: this.block, start: this.begin() };
      writeToolFields(tool as ToolInfo, this.options, this);
      while (this.field < SEARCH_FIELDS.length) this.endField();
      this.places.set(tool, place);
    }
    // This build's block is final only after `finish`: until then its documents are in the buffer.
    this.data = place.block === this.block ? this.buffer.data : place.block.data;
    this.start = place.start;
  }

  /** How many numbers this build's documents take. */
  get length(): number {
    return this.buffer.length;
  }

  /** Keeps this build's documents as a trimmed copy (the buffer has room to spare). */
  finish(): void {
    this.block.data = this.buffer.data.slice(0, this.buffer.length);
  }

  text(value: unknown): void {
    if (typeof value !== 'string' || value.length === 0) return;
    const span = this.texts.get(value);
    if (span !== undefined) {
      this.repeat(span);
      return;
    }
    const start = this.buffer.length;
    this.encode(tokenize(value));
    this.texts.set(value, this.span(start));
  }

  translation(value: string): void {
    if (value.length === 0) return;
    const span = this.translations.get(value);
    if (span !== undefined) {
      this.repeat(span);
      return;
    }
    const start = this.buffer.length;
    this.encode(translatedTerms(value));
    this.translations.set(value, this.span(start));
  }

  schema(schema: unknown): void {
    if (schema === null || typeof schema !== 'object') return;
    const span = this.schemas.get(schema);
    if (span !== undefined) {
      this.repeat(span);
      return;
    }
    const start = this.buffer.length;
    writeSchemaTerms(schema, this);
    this.schemas.set(schema, this.span(start));
  }

  endField(): void {
    this.buffer.data[this.documentStart + this.field++] = this.buffer.length - this.documentStart;
  }

  /** Starts a document: a slot per field end. */
  private begin(): number {
    this.documentStart = this.buffer.length;
    this.field = 0;
    for (let field = 0; field < SEARCH_FIELDS.length; field++) this.buffer.push(0);
    return this.documentStart;
  }

  private encode(terms: readonly string[]): void {
    for (let index = 0; index < terms.length; index++) this.buffer.push(this.dictionary.id(terms[index] as string));
  }

  /** Records the numbers written since `start` as a span; returns its number. */
  private span(start: number): number {
    this.spans.push(start);
    this.spans.push(this.buffer.length);
    return (this.spans.length >> 1) - 1;
  }

  /** Writes a span's numbers again, at the end of the buffer. */
  private repeat(span: number): void {
    const spans = this.spans.data;
    this.buffer.repeat(spans[2 * span] as number, spans[2 * span + 1] as number);
  }
}
