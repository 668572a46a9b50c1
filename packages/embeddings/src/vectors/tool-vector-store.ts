/**
 * The vectors of the tool sets a provider has seen: found by array identity, then by fingerprint (the same tools
 * in a new array), built once each in the background, one build at a time (a build may occupy every core).
 *
 * A failed build is remembered: searches do not retry it for a minute (each retry may load the model again);
 * an explicit `build` (from `ready`) always retries.
 */
import { errorMessage, type Logger, type ToolInfo } from '@search-mcp/shared';
import type { TextEmbedder } from '../model/text-embedder.js';
import type { QueryTranslator } from '../text/english-gloss.js';
import { buildToolVectors, type HybridVectorBuildStats } from './tool-vector-builder.js';
import { type PreparedToolSet, prepareToolSet, type ToolVectors } from './tool-vectors.js';
import type { VectorCache } from './vector-cache.js';

const RETRY_AFTER_MS = 60_000;

export interface ToolVectorStoreOptions {
  embedder: TextEmbedder;
  cache: VectorCache | undefined;
  translate: QueryTranslator | undefined;
  /** Tool sets kept in memory. */
  capacity: number;
  logger: Logger;
  /** Runs at the end of each build, before it counts as done (loads the model for queries). */
  afterBuild: () => Promise<unknown>;
  onBuilt?: (stats: HybridVectorBuildStats) => void;
}

export interface ToolVectorStoreState {
  building: boolean;
  /** Texts embedded so far / to embed, while building. */
  progress?: { done: number; total: number };
  toolSets: number;
  vectors: number;
  lastBuild?: HybridVectorBuildStats;
  lastError?: string;
  /** The last build failed (and none is running). */
  failed: boolean;
}

export class ToolVectorStore {
  private readonly prepared = new WeakMap<readonly ToolInfo[], PreparedToolSet>();
  /** Least recently used first. */
  private readonly byFingerprint = new Map<string, ToolVectors>();
  private readonly running = new Map<string, Promise<ToolVectors>>();
  private readonly failures = new Map<string, { at: number; message: string }>();
  private queue: Promise<unknown> = Promise.resolve();
  private progress: { done: number; total: number } | undefined;
  private lastBuild: HybridVectorBuildStats | undefined;
  private lastError: string | undefined;
  private lastBuildFailed = false;

  constructor(private readonly options: ToolVectorStoreOptions) {}

  /** The vectors of this tool set, if built. */
  vectorsFor(tools: readonly ToolInfo[]): ToolVectors | undefined {
    const { fingerprint } = this.preparedFor(tools);
    const vectors = this.byFingerprint.get(fingerprint);
    if (vectors !== undefined) {
      this.byFingerprint.delete(fingerprint);
      this.byFingerprint.set(fingerprint, vectors);
    }
    return vectors;
  }

  /** Builds the vectors of this tool set, or joins the build already running. */
  build(tools: readonly ToolInfo[], explicit: boolean): Promise<ToolVectors> {
    const prepared = this.preparedFor(tools);
    const { fingerprint } = prepared;
    const running = this.running.get(fingerprint);
    if (running !== undefined) return running;
    const failure = this.failures.get(fingerprint);
    if (!explicit && failure !== undefined && Date.now() - failure.at < RETRY_AFTER_MS) {
      return Promise.reject(new Error(failure.message));
    }
    const build = this.queue.then(() => this.run(prepared));
    this.queue = build.catch(() => undefined);
    this.running.set(fingerprint, build);
    const done = () => this.running.delete(fingerprint);
    build.then(done, done);
    return build;
  }

  /** Records a failure that is not a build's (a search that fell back), for `status`. */
  noteError(message: string): void {
    this.lastError = message;
  }

  state(): ToolVectorStoreState {
    let vectors = 0;
    for (const set of this.byFingerprint.values()) vectors += set.texts.length;
    const building = this.running.size > 0;
    return {
      building,
      ...(building && this.progress ? { progress: { ...this.progress } } : {}),
      toolSets: this.byFingerprint.size,
      vectors,
      ...(this.lastBuild ? { lastBuild: { ...this.lastBuild } } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
      failed: !building && this.lastBuildFailed,
    };
  }

  private preparedFor(tools: readonly ToolInfo[]): PreparedToolSet {
    let prepared = this.prepared.get(tools);
    if (prepared === undefined || prepared.texts.length !== tools.length) {
      prepared = prepareToolSet(tools, this.options.translate);
      this.prepared.set(tools, prepared);
    }
    return prepared;
  }

  private async run(prepared: PreparedToolSet): Promise<ToolVectors> {
    const existing = this.byFingerprint.get(prepared.fingerprint);
    if (existing !== undefined) return existing;
    const { logger } = this.options;
    this.progress = { done: 0, total: 0 };
    logger.info('hybrid search: building tool vectors', { tools: prepared.texts.length });
    try {
      const { vectors, stats } = await buildToolVectors(prepared, {
        embedder: this.options.embedder,
        ...(this.options.cache ? { cache: this.options.cache } : {}),
        known: (hash) => this.knownVector(hash),
        onProgress: (done, total) => {
          this.progress = { done, total };
        },
      });
      await this.options.afterBuild();
      if (stats.cacheError !== undefined) {
        this.lastError = stats.cacheError;
        logger.warn('hybrid search: vector cache unavailable', { reason: stats.cacheError });
      }
      this.byFingerprint.set(prepared.fingerprint, vectors);
      while (this.byFingerprint.size > this.options.capacity) {
        const oldest = this.byFingerprint.keys().next().value;
        if (oldest === undefined) break;
        this.byFingerprint.delete(oldest);
      }
      this.failures.delete(prepared.fingerprint);
      this.lastBuild = stats;
      this.lastBuildFailed = false;
      logger.info('hybrid search: tool vectors ready', { ...stats });
      this.options.onBuilt?.(stats);
      return vectors;
    } catch (error) {
      const message = errorMessage(error);
      this.failures.set(prepared.fingerprint, { at: Date.now(), message });
      this.lastError = `could not build tool vectors: ${message}`;
      this.lastBuildFailed = true;
      logger.warn('hybrid search: could not build tool vectors, BM25 answers', { reason: message });
      throw error;
    } finally {
      this.progress = undefined;
    }
  }

  private knownVector(hash: string): Float32Array | undefined {
    for (const vectors of this.byFingerprint.values()) {
      const row = vectors.rowOfHash.get(hash);
      if (row !== undefined)
        return vectors.matrix.data.subarray(row * vectors.dimensions, (row + 1) * vectors.dimensions);
    }
    return undefined;
  }
}
