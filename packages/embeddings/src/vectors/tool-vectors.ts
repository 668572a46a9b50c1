/**
 * The vectors of one tool set, as one row-major matrix (row i = tools[i], see vector-matrix.ts), and the cosine of
 * a query with every row. Rows are unit length (a tool that could not be read is a zero row: cosine 0 with
 * everything), so a dot product is the cosine.
 */
import { createHash } from 'node:crypto';
import { isRecord, type ToolInfo } from '@search-mcp/shared';
import type { QueryTranslator } from '../text/english-gloss.js';
import { toolEmbeddingText } from '../text/tool-embedding-text.js';
import { VECTOR_HASH_BYTES } from './vector-cache.js';
import type { VectorMatrix } from './vector-matrix.js';

/** What is known of a tool set before any model runs: its texts, their hashes, and a fingerprint of the set. */
export interface PreparedToolSet {
  texts: string[];
  /** Per row: hex hash of the text (the vector cache key). */
  hashes: string[];
  /** Hash of the rows' keys and text hashes, in order: equal fingerprints mean interchangeable vectors. */
  fingerprint: string;
  /** Tool key → its first row. */
  rowOfKey: Map<string, number>;
}

export interface ToolVectors extends PreparedToolSet {
  dimensions: number;
  /** `texts.length × dimensions`, unit rows. */
  matrix: VectorMatrix;
  /** Text hash → a row holding its vector (to reuse vectors in the next tool set). */
  rowOfHash: Map<string, number>;
}

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest().subarray(0, VECTOR_HASH_BYTES).toString('hex');
}

/** Texts, hashes and fingerprint of a tool set. Malformed entries keep their row (rows stay array positions). */
export function prepareToolSet(tools: readonly ToolInfo[], translate?: QueryTranslator): PreparedToolSet {
  const texts: string[] = [];
  const hashes: string[] = [];
  const rowOfKey = new Map<string, number>();
  const fingerprint = createHash('sha256');
  tools.forEach((tool, row) => {
    const text = isRecord(tool) ? toolEmbeddingText(tool, translate) : '';
    const hash = textHash(text);
    texts.push(text);
    hashes.push(hash);
    const key = isRecord(tool) && typeof tool.toolKey === 'string' ? tool.toolKey : '';
    if (key.length > 0 && !rowOfKey.has(key)) rowOfKey.set(key, row);
    fingerprint.update(`${key}\u0000${hash}\u0000`);
  });
  return { texts, hashes, fingerprint: fingerprint.digest('hex'), rowOfKey };
}

/** Scales a vector to unit length in place (a zero or non-finite vector becomes zero). */
export function normalizeVector(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (!(norm > 0) || !Number.isFinite(norm)) return vector.fill(0);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}

/** Cosine of a unit query vector with every row. */
export function cosinesWith(vectors: ToolVectors, query: Float32Array): Float32Array {
  return vectors.matrix.dot(query);
}
