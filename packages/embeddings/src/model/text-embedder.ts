/**
 * The contract of a sentence-embedding model (types only): texts in, one unit-length vector per text out.
 * `HybridSearchProvider` uses MiniLM by default (`createMiniLmEmbedder`); a host may inject another model.
 */
export interface TextEmbedder {
  /**
   * The model and every setting that changes its vectors, e.g. `minilm-l6-v2-128`. Vectors are cached on disk
   * under this id, so two models (or one model with two settings) never share vectors.
   */
  readonly id: string;
  /** Length of each vector. */
  readonly dimensions: number;
  /** True once the model has been loaded into this process (for `doctor`). */
  readonly loaded: boolean;
  /**
   * One vector per text, in order. `onProgress(done, total)` reports long jobs (embedding a whole catalog).
   * Rejects when the model cannot run; never returns vectors of another length.
   */
  embed(texts: readonly string[], options?: TextEmbedOptions): Promise<Float32Array[]>;
}

export interface TextEmbedOptions {
  onProgress?: (done: number, total: number) => void;
}
