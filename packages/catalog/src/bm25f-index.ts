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
 * Why not lunr's own index: lunr builds a vector per document and field and a token set (an automaton) for
 * wildcard search, which costs seconds and hundreds of MB at 50,000 multi-field documents, and its scorer
 * cannot express per-field length normalization (BM25F) or the coverage features used by the provider.
 * lunr is still used for what it does well: the Porter stemmer (see text-tokenizer.ts).
 */

/** Growable typed array of 32-bit ints (build-time scratch). */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

/** Growable Uint8Array with a fixed stride (per-field term frequencies of each posting). */
class ByteRows {
  data: Uint8Array;
  rows = 0;
  constructor(
    readonly stride: number,
    capacity = 1024,
  ) {
    this.data = new Uint8Array(capacity * stride);
  }
  addRow(): number {
    if ((this.rows + 1) * this.stride > this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    return this.rows++;
  }
}

/** Growable Float32Array. */
class FloatList {
  data: Float32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

export interface Bm25fParameters {
  k1: number;
  /** Weight per field (same order as the builder's fields). */
  weights: readonly number[];
  /** Length normalization per field, 0..1. */
  b: readonly number[];
}

/** Features a search computes per document, besides the BM25F score. */
export interface ScoredDocument {
  doc: number;
  /** Σ qw · BM25F contribution over matched terms. */
  score: number;
  /** Σ qw · idf over matched terms (divide by the query's total for a 0..1 coverage). */
  coverage: number;
  /** How many query terms matched the first field (the tool name). */
  nameHits: number;
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
  private readonly postTerm = new IntList(4096);
  private readonly postTf: ByteRows;
  private readonly docStart = new IntList(1024);
  private readonly fieldLengths = new FloatList(1024);
  private readonly firstFieldUnique = new IntList(1024);
  /** termId → posting row of the current document, or -1. Grows with the vocabulary. */
  private slotOf = new Int32Array(1024).fill(-1);
  private docCount = 0;

  constructor(readonly fieldCount: number) {
    if (fieldCount < 1 || fieldCount > 8) throw new RangeError('fieldCount must be 1..8');
    this.postTf = new ByteRows(fieldCount, 4096);
  }

  /** Adds one document: `fields[f]` is the term list of field f (missing fields are empty). Returns its id. */
  addDocument(fields: ReadonlyArray<readonly string[] | undefined>): number {
    const doc = this.docCount++;
    const firstPosting = this.postTerm.length;
    this.docStart.push(firstPosting);
    for (let f = 0; f < this.fieldCount; f++) {
      const terms = fields[f];
      this.fieldLengths.push(terms === undefined ? 0 : terms.length);
      if (terms === undefined) continue;
      for (const term of terms) {
        let id = this.vocabulary.get(term);
        if (id === undefined) {
          id = this.vocabulary.size;
          this.vocabulary.set(term, id);
          if (id >= this.slotOf.length) {
            const next = new Int32Array(this.slotOf.length * 2).fill(-1);
            next.set(this.slotOf);
            this.slotOf = next;
          }
        }
        let row = this.slotOf[id] as number;
        if (row < 0) {
          row = this.postTf.addRow();
          this.slotOf[id] = row;
          this.postTerm.push(id);
        }
        const cell = row * this.fieldCount + f;
        const tf = this.postTf.data[cell] as number;
        if (tf < 255) this.postTf.data[cell] = tf + 1;
      }
    }
    let firstFieldTerms = 0;
    for (let p = firstPosting; p < this.postTerm.length; p++) {
      this.slotOf[this.postTerm.data[p] as number] = -1;
      if ((this.postTf.data[p * this.fieldCount] as number) > 0) firstFieldTerms++;
    }
    this.firstFieldUnique.push(firstFieldTerms);
    return doc;
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
    for (let d = 0; d < N; d++) for (let f = 0; f < F; f++) avgLength[f] = (avgLength[f] as number) + (lengths[d * F + f] as number);
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
  // Per-search scratch, reused (searches on one index are synchronous, so never interleaved).
  private readonly accScore: Float32Array;
  private readonly accCoverage: Float32Array;
  private readonly accNameHits: Uint8Array;
  private readonly stamp: Uint32Array;
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
    this.accScore = new Float32Array(this.docCount);
    this.accCoverage = new Float32Array(this.docCount);
    this.accNameHits = new Uint8Array(this.docCount);
    this.stamp = new Uint32Array(this.docCount);
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

  documentFrequency(termId: number): number {
    return ((this.termStart[termId + 1] ?? 0) - (this.termStart[termId] ?? 0)) | 0;
  }

  /** Bit mask of the fields of `doc` that contain the term (0 when none), by binary search. */
  fieldMask(termId: number, doc: number): number {
    let lo = this.termStart[termId] ?? 0;
    let hi = (this.termStart[termId + 1] ?? 0) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = this.postDoc[mid] as number;
      if (d === doc) return this.postMask[mid] as number;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** Scores every document that matches at least one term; returns them unsorted. */
  match(terms: readonly QueryTerm[]): ScoredDocument[] {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    const gen = this.generation;
    const touched: number[] = [];
    const { accScore, accCoverage, accNameHits, stamp, postDoc, postVal, postMask } = this;
    for (const { termId, weight, coverageWeight } of terms) {
      const start = this.termStart[termId];
      const end = this.termStart[termId + 1];
      if (start === undefined || end === undefined || weight <= 0) continue;
      const idfWeight = coverageWeight * (this.idfs[termId] as number);
      for (let p = start; p < end; p++) {
        const d = postDoc[p] as number;
        if (stamp[d] !== gen) {
          stamp[d] = gen;
          accScore[d] = 0;
          accCoverage[d] = 0;
          accNameHits[d] = 0;
          touched.push(d);
        }
        accScore[d] = (accScore[d] as number) + weight * (postVal[p] as number);
        accCoverage[d] = (accCoverage[d] as number) + idfWeight;
        if (((postMask[p] as number) & 1) !== 0 && (accNameHits[d] as number) < 255) {
          accNameHits[d] = (accNameHits[d] as number) + 1;
        }
      }
    }
    const out: ScoredDocument[] = new Array(touched.length);
    for (let i = 0; i < touched.length; i++) {
      const d = touched[i] as number;
      out[i] = {
        doc: d,
        score: accScore[d] as number,
        coverage: accCoverage[d] as number,
        nameHits: accNameHits[d] as number,
      };
    }
    return out;
  }
}
