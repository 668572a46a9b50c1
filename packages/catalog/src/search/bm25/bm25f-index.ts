/**
 * A compact in-memory BM25F inverted index (Robertson & Zaragoza's "simple BM25F"): for each term and document,
 *
 *   tf~(t, d) = Σ_f  w_f · tf_f(t, d) / (1 − b_f + b_f · len_f(d) / avglen_f)
 *   score(q, d) = Σ_t∈q  qw_t · idf(t) · tf~ / (k1 + tf~),   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * Everything but the query weight qw_t is known at build time, so each posting stores its final contribution
 * and a search is a sum over the postings of the query terms. Postings live in flat typed arrays (CSR layout:
 * doc ids ascending per term, one float and one field bit mask each), so a 50,000-tool index is a few MB and
 * a search touches only the postings of its terms.
 *
 * Why not lunr's own index (measured on this machine, Seal-Tools replicated to 50,000 tools, four fields): lunr's
 * Builder took 6.9 s and 346 MB of heap and a query took 23 ms at the median (5,000 tools: 0.7 s, 44 MB), because
 * it keeps a vector per document and field plus a token set for wildcard search. This index: about 0.9 s for the
 * first search including tokenization, about 10 MB, about 4 ms per search (bench/results/search.md). lunr's scorer
 * also cannot express per-field length normalization (BM25F) or the coverage and name features of the provider.
 * lunr is still used for what it does well: the Porter stemmer (see text-tokenizer.ts).
 */

import { ByteRows, FloatList, IntList } from './growable-arrays.js';
import { type EncodedDocuments, encodeDocument, TermDictionary } from './term-dictionary.js';

export interface Bm25fParameters {
  k1: number;
  /** Weight per field (same order as the builder's fields). */
  weights: readonly number[];
  /** Length normalization per field, 0..1. */
  b: readonly number[];
}

export interface QueryTerm {
  termId: number;
  /** Multiplies the term's BM25F contribution. */
  weight: number;
  /** Multiplies the term's idf in the coverage sum (0 for expansion terms that should not count as coverage). */
  coverageWeight: number;
}

export class Bm25fIndexBuilder {
  private readonly vocabulary = new Map<string, number>();
  /** Dictionary number → this index's term id, or -1. Grows with the dictionary. */
  private localOf: Int32Array;
  private readonly postTerm: IntList;
  private readonly postTf: ByteRows;
  private readonly docStart: IntList;
  private readonly fieldLengths: FloatList;
  private readonly firstFieldUnique: IntList;
  /** termId → posting row of the current document, or -1. Grows with the vocabulary. */
  private slotOf = new Int32Array(1024).fill(-1);
  private docCount = 0;

  /**
   * `dictionary`: the numbers of the encoded documents given to `addEncoded` (shared with their maker). `expected`:
   * how many documents and postings to make room for at once (the arrays still grow past them), so that a large
   * build does not copy its arrays a dozen times over.
   */
  constructor(
    readonly fieldCount: number,
    private readonly dictionary = new TermDictionary(),
    expected: { documents: number; postings: number } = { documents: 1024, postings: 4096 },
  ) {
    if (fieldCount < 1 || fieldCount > 8) throw new RangeError('fieldCount must be 1..8');
    const documents = Math.max(16, expected.documents);
    const postings = Math.max(16, expected.postings);
    this.postTerm = new IntList(postings);
    this.postTf = new ByteRows(fieldCount, postings);
    this.docStart = new IntList(documents);
    this.fieldLengths = new FloatList(documents * fieldCount);
    this.firstFieldUnique = new IntList(documents);
    this.localOf = new Int32Array(Math.max(1024, dictionary.size)).fill(-1);
  }

  /** Adds one document: `fields[f]` is the term list of field f (missing fields are empty). Returns its id. */
  addDocument(fields: ReadonlyArray<readonly string[] | undefined>): number {
    return this.addEncoded(encodeDocument(fields, this.fieldCount, this.dictionary));
  }

  /**
   * Adds the document at `start` of `data`, encoded against the builder's dictionary (`term-dictionary.ts`). Term
   * ids are given in order of first occurrence, so the index is the same whichever way its documents were given.
   */
  addEncoded(data: EncodedDocuments, start = 0): number {
    const fieldCount = this.fieldCount;
    const doc = this.docCount++;
    const firstPosting = this.postTerm.length;
    this.docStart.push(firstPosting);
    const tfs = this.postTf;
    let at = start + fieldCount;
    for (let f = 0; f < fieldCount; f++) {
      const end = start + (data[start + f] as number);
      this.fieldLengths.push(end - at);
      for (; at < end; at++) {
        const id = this.localId(data[at] as number);
        let row = this.slotOf[id] as number;
        if (row < 0) {
          row = tfs.addRow();
          this.slotOf[id] = row;
          this.postTerm.push(id);
        }
        const cell = row * fieldCount + f;
        const tf = tfs.data[cell] as number;
        if (tf < 255) tfs.data[cell] = tf + 1;
      }
    }
    let firstFieldTerms = 0;
    for (let p = firstPosting; p < this.postTerm.length; p++) {
      this.slotOf[this.postTerm.data[p] as number] = -1;
      if ((tfs.data[p * fieldCount] as number) > 0) firstFieldTerms++;
    }
    this.firstFieldUnique.push(firstFieldTerms);
    return doc;
  }

  /** This index's id of a dictionary number, given on first sight. */
  private localId(global: number): number {
    if (global >= this.localOf.length) {
      let length = this.localOf.length * 2;
      while (length <= global) length *= 2;
      const next = new Int32Array(length).fill(-1);
      next.set(this.localOf);
      this.localOf = next;
    }
    let id = this.localOf[global] as number;
    if (id < 0) {
      id = this.vocabulary.size;
      this.vocabulary.set(this.dictionary.term(global), id);
      this.localOf[global] = id;
      if (id >= this.slotOf.length) {
        const next = new Int32Array(this.slotOf.length * 2).fill(-1);
        next.set(this.slotOf);
        this.slotOf = next;
      }
    }
    return id;
  }

  build(parameters: Bm25fParameters): Bm25fIndex {
    const F = this.fieldCount;
    const N = this.docCount;
    const termCount = this.vocabulary.size;
    const postingCount = this.postTerm.length;
    const postTerm = this.postTerm.data;
    const postTf = this.postTf.data;
    const lengths = this.fieldLengths.data;

    const avgLength = new Float64Array(F);
    for (let d = 0; d < N; d++) {
      for (let f = 0; f < F; f++) avgLength[f] = (avgLength[f] as number) + (lengths[d * F + f] as number);
    }
    for (let f = 0; f < F; f++) avgLength[f] = N > 0 ? (avgLength[f] as number) / N : 0;

    const df = new Int32Array(termCount);
    for (let p = 0; p < postingCount; p++) {
      const t = postTerm[p] as number;
      df[t] = (df[t] as number) + 1;
    }
    const termStart = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) termStart[t + 1] = (termStart[t] as number) + (df[t] as number);
    const idf = new Float32Array(termCount);
    for (let t = 0; t < termCount; t++) {
      const n = df[t] as number;
      idf[t] = Math.log(1 + (N - n + 0.5) / (n + 0.5));
    }

    const postDoc = new Int32Array(postingCount);
    const postVal = new Float32Array(postingCount);
    const postMask = new Uint8Array(postingCount);
    const cursor = termStart.slice(0, termCount);
    // Per-document length normalization factors, per field.
    const norm = new Float64Array(F);
    const weights = Array.from({ length: F }, (_, f) => parameters.weights[f] ?? 0);
    const bs = Array.from({ length: F }, (_, f) => Math.min(1, Math.max(0, parameters.b[f] ?? 0.75)));
    const k1 = parameters.k1;
    const docStart = this.docStart.data;
    for (let d = 0; d < N; d++) {
      for (let f = 0; f < F; f++) {
        const avg = avgLength[f] as number;
        const b = bs[f] as number;
        norm[f] = avg > 0 ? 1 - b + (b * (lengths[d * F + f] as number)) / avg : 1;
      }
      const end = d + 1 < N ? (docStart[d + 1] as number) : postingCount;
      for (let p = docStart[d] as number; p < end; p++) {
        let tfTilde = 0;
        let mask = 0;
        for (let f = 0; f < F; f++) {
          const tf = postTf[p * F + f] as number;
          if (tf === 0) continue;
          mask |= 1 << f;
          tfTilde += ((weights[f] as number) * tf) / (norm[f] as number);
        }
        const t = postTerm[p] as number;
        const at = cursor[t] as number;
        cursor[t] = at + 1;
        postDoc[at] = d;
        postMask[at] = mask;
        postVal[at] = tfTilde > 0 ? ((idf[t] as number) * tfTilde) / (k1 + tfTilde) : 0;
      }
    }
    return new Bm25fIndex(
      this.vocabulary,
      termStart,
      postDoc,
      postVal,
      postMask,
      idf,
      Uint8Array.from(this.firstFieldUnique.data.subarray(0, N), (n) => Math.min(255, n)),
    );
  }
}

export class Bm25fIndex {
  readonly docCount: number;
  /**
   * Per-search accumulators, valid for the documents `accumulate` returned until the next call (searches on one
   * index are synchronous, so never interleaved). Σ qw · BM25F contribution; Σ coverageWeight · idf; how many
   * query terms matched the first field (the tool name).
   */
  readonly scores: Float32Array;
  readonly coverages: Float32Array;
  readonly nameHits: Uint8Array;
  private readonly stamp: Uint32Array;
  private readonly touched: Int32Array;
  private generation = 0;

  constructor(
    private readonly vocabulary: ReadonlyMap<string, number>,
    private readonly termStart: Int32Array,
    private readonly postDoc: Int32Array,
    private readonly postVal: Float32Array,
    private readonly postMask: Uint8Array,
    private readonly idfs: Float32Array,
    /** Distinct terms in the first field (the tool name) of each document. */
    readonly nameTermCounts: Uint8Array,
  ) {
    this.docCount = nameTermCounts.length;
    this.scores = new Float32Array(this.docCount);
    this.coverages = new Float32Array(this.docCount);
    this.nameHits = new Uint8Array(this.docCount);
    this.stamp = new Uint32Array(this.docCount);
    this.touched = new Int32Array(this.docCount);
  }

  get termCount(): number {
    return this.vocabulary.size;
  }

  get postingCount(): number {
    return this.postDoc.length;
  }

  termId(term: string): number | undefined {
    return this.vocabulary.get(term);
  }

  idf(termId: number): number {
    return this.idfs[termId] ?? 0;
  }

  /** The idf a term that no document contains would have: the most telling a word can be in this index. */
  get unknownIdf(): number {
    return Math.log(1 + (this.docCount + 0.5) / 0.5);
  }

  /** Bit mask of the fields of `doc` that contain the term (0 when none), by binary search. */
  fieldMask(termId: number, doc: number): number {
    const posting = this.postingOf(termId, doc);
    return posting < 0 ? 0 : (this.postMask[posting] as number);
  }

  /** The term's BM25F contribution to `doc` (idf · tf~ / (k1 + tf~)), 0 when `doc` does not contain it. */
  contribution(termId: number, doc: number): number {
    const posting = this.postingOf(termId, doc);
    return posting < 0 ? 0 : (this.postVal[posting] as number);
  }

  /** Whether the last `accumulate` matched `doc` (its scratch values are then current). */
  matchedLast(doc: number): boolean {
    return this.generation !== 0 && this.stamp[doc] === this.generation;
  }

  /** The posting of the term in `doc`, or -1 (binary search over the term's doc ids). */
  private postingOf(termId: number, doc: number): number {
    let lo = this.termStart[termId] ?? 0;
    let hi = (this.termStart[termId + 1] ?? 0) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = this.postDoc[mid] as number;
      if (d === doc) return mid;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Sums the query terms' postings into `scores`, `coverages` and `nameHits`; returns the documents that match
   * at least one term (a view of an internal buffer, valid until the next call).
   */
  accumulate(terms: readonly QueryTerm[]): Int32Array {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    const gen = this.generation;
    let count = 0;
    const { scores, coverages, nameHits, stamp, touched, postDoc, postVal, postMask } = this;
    for (const { termId, weight, coverageWeight } of terms) {
      const start = this.termStart[termId];
      const end = this.termStart[termId + 1];
      if (start === undefined || end === undefined || !(weight > 0)) continue;
      const idfWeight = coverageWeight * (this.idfs[termId] as number);
      for (let p = start; p < end; p++) {
        const d = postDoc[p] as number;
        if (stamp[d] !== gen) {
          stamp[d] = gen;
          scores[d] = 0;
          coverages[d] = 0;
          nameHits[d] = 0;
          touched[count++] = d;
        }
        scores[d] = (scores[d] as number) + weight * (postVal[p] as number);
        coverages[d] = (coverages[d] as number) + idfWeight;
        if (((postMask[p] as number) & 1) !== 0 && (nameHits[d] as number) < 255) {
          nameHits[d] = (nameHits[d] as number) + 1;
        }
      }
    }
    return touched.subarray(0, count);
  }
}
