/**
 * Numbers for index terms, shared by everything one provider indexes: the analyzed tool documents hold these
 * numbers (`tool-documents.ts`), so building an index looks each term up once per distinct text rather than once
 * per occurrence, and an index built again reuses the documents of the tools it has seen.
 */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];

  get size(): number {
    return this.terms.length;
  }

  /** The term's number, given on first sight. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  term(id: number): string {
    return this.terms[id] as string;
  }
}

/**
 * A tool's document as the index builder reads it, at some offset of an array of integers: the end of each field
 * first (one per field, counted from the document's start), then the term numbers of every field in order. The
 * documents of one build share one Int32Array (`tool-documents.ts`): one allocation rather than one per tool.
 */
export type EncodedDocuments = ArrayLike<number>;

/** Encodes term lists (one per field) as one document at offset 0. */
export function encodeDocument(
  fields: ReadonlyArray<readonly string[] | undefined>,
  fieldCount: number,
  dictionary: TermDictionary,
): number[] {
  const document: number[] = [];
  for (let field = 0; field < fieldCount; field++) document.push(0);
  for (let field = 0; field < fieldCount; field++) {
    for (const term of fields[field] ?? []) document.push(dictionary.id(term));
    document[field] = document.length;
  }
  return document;
}
