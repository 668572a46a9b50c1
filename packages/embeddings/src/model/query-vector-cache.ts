/**
 * Query vectors by text, least recently used dropped first: an agent often asks the same thing twice, and a
 * cached query costs microseconds instead of a forward pass (20–40 ms). All texts missing from the cache go to
 * the model in one call.
 */
import { normalizeVector } from '../vectors/tool-vectors.js';
import type { TextEmbedder } from './text-embedder.js';

export class QueryVectorCache {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: TextEmbedder,
    private readonly capacity: number,
  ) {}

  async vectorsFor(texts: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const text of texts) {
      const known = this.vectors.get(text);
      if (known === undefined) {
        if (!missing.includes(text)) missing.push(text);
        continue;
      }
      this.vectors.delete(text);
      this.vectors.set(text, known);
      out.set(text, known);
    }
    if (missing.length === 0) return out;
    const embedded = await this.embedder.embed(missing);
    missing.forEach((text, i) => {
      const vector = normalizeVector(Float32Array.from(embedded[i] ?? []));
      out.set(text, vector);
      if (this.capacity === 0) return;
      this.vectors.set(text, vector);
      while (this.vectors.size > this.capacity) {
        const oldest = this.vectors.keys().next().value;
        if (oldest === undefined) break;
        this.vectors.delete(oldest);
      }
    });
    return out;
  }
}
