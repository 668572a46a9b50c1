/**
 * Builds the vectors of a tool set, embedding only what is not known yet: a vector already in memory (an earlier
 * tool set sharing the tool), then one on disk (an earlier run), then the model. New vectors go to disk in chunks,
 * so an interrupted build keeps what it finished.
 */
import { performance } from 'node:perf_hooks';
import { errorMessage } from '@search-mcp/shared';
import type { TextEmbedder } from '../model/text-embedder.js';
import { normalizeVector, type PreparedToolSet, type ToolVectors } from './tool-vectors.js';
import type { VectorCache } from './vector-cache.js';
import { createVectorMatrix } from './vector-matrix.js';

/** What a build did (status, `onVectorsBuilt`, the benchmark). */
export interface HybridVectorBuildStats {
  tools: number;
  /** Texts the model embedded. */
  embedded: number;
  /** Vectors read from the disk cache. */
  fromDisk: number;
  /** Vectors reused from a tool set already in memory. */
  fromMemory: number;
  durationMs: number;
  /** Why the disk cache could not be read or written (the build still succeeded). */
  cacheError?: string;
}

export interface ToolVectorBuildOptions {
  embedder: TextEmbedder;
  cache?: VectorCache;
  /** A vector already in memory for this text hash. */
  known?: (hash: string) => Float32Array | undefined;
  /** Texts per model call (and per pack written to disk). */
  chunkSize?: number;
  onProgress?: (done: number, total: number) => void;
}

export async function buildToolVectors(
  prepared: PreparedToolSet,
  options: ToolVectorBuildOptions,
): Promise<{ vectors: ToolVectors; stats: HybridVectorBuildStats }> {
  const started = performance.now();
  const { embedder, cache } = options;
  const dimensions = embedder.dimensions;
  const found = new Map<string, Float32Array>();
  let fromMemory = 0;
  let cacheError: string | undefined;
  for (const hash of prepared.hashes) {
    if (found.has(hash)) continue;
    const vector = options.known?.(hash);
    if (vector !== undefined && vector.length === dimensions) {
      found.set(hash, vector);
      fromMemory++;
    }
  }
  let fromDisk = 0;
  if (cache !== undefined) {
    const wanted = prepared.hashes.filter((hash) => !found.has(hash));
    try {
      for (const [hash, vector] of await cache.read(wanted)) {
        found.set(hash, normalizeVector(vector));
        fromDisk++;
      }
    } catch (error) {
      cacheError = `could not read the vector cache: ${errorMessage(error)}`;
    }
  }

  // Each distinct missing text once; an empty text (a malformed tool) stays a zero row.
  const missing = new Map<string, string>();
  prepared.hashes.forEach((hash, row) => {
    const text = prepared.texts[row] as string;
    if (text.length > 0 && !found.has(hash) && !missing.has(hash)) missing.set(hash, text);
  });
  const pending = [...missing];
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 512));
  const total = pending.length;
  options.onProgress?.(0, total);
  for (let start = 0; start < total; start += chunkSize) {
    const chunk = pending.slice(start, start + chunkSize);
    const vectors = await options.embedder.embed(
      chunk.map(([, text]) => text),
      { onProgress: (done) => options.onProgress?.(start + done, total) },
    );
    const entries = chunk.map(([hash], i) => ({ hash, vector: normalizeVector(Float32Array.from(vectors[i] ?? [])) }));
    for (const { hash, vector } of entries) {
      if (vector.length !== dimensions) throw new Error(`the model returned a vector of ${vector.length} numbers`);
      found.set(hash, vector);
    }
    if (cache !== undefined && cacheError === undefined) {
      try {
        await cache.write(entries);
      } catch (error) {
        cacheError = `could not write the vector cache: ${errorMessage(error)}`;
      }
    }
    options.onProgress?.(Math.min(total, start + chunk.length), total);
  }

  const matrix = createVectorMatrix(prepared.hashes.length, dimensions);
  const rowOfHash = new Map<string, number>();
  prepared.hashes.forEach((hash, row) => {
    const vector = found.get(hash);
    if (vector === undefined) return;
    matrix.data.set(vector, row * dimensions);
    if (!rowOfHash.has(hash)) rowOfHash.set(hash, row);
  });
  const stats: HybridVectorBuildStats = {
    tools: prepared.hashes.length,
    embedded: total,
    fromDisk,
    fromMemory,
    durationMs: performance.now() - started,
    ...(cacheError === undefined ? {} : { cacheError }),
  };
  return { vectors: { ...prepared, dimensions, matrix, rowOfHash }, stats };
}
