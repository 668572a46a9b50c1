/**
 * Tool vectors on disk, keyed by a hash of the text that was embedded, so a restart (or a second process, or a
 * changed tool set that shares most tools) embeds only the texts it has never seen.
 *
 * Layout: `<directory>/<namespace>/pack-*.vec`, one directory per model and setting (vectors of two models never
 * mix). A pack file holds many vectors: a 16-byte header (`SMVC`, version, dimensions, count), then `count` 16-byte
 * text hashes, then `count × dimensions` little-endian float32. A file is written under a temporary name and renamed
 * into place, so readers never see half a file and concurrent writers (two servers on one machine) never clobber
 * each other: each writes its own pack. When packs pile up they are merged into one; a pack that vanishes or is
 * damaged while being read is skipped (its texts are embedded again, nothing is lost).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';

const MAGIC = 0x43564d53; // 'SMVC' read as a little-endian uint32
const FORMAT_VERSION = 1;
const HEADER_BYTES = 16;
/** Hash bytes per entry (a 128-bit prefix of SHA-256). */
export const VECTOR_HASH_BYTES = 16;
const PACK_PATTERN = /^pack-[a-z0-9-]+\.vec$/;
const TEMPORARY_PREFIX = '.tmp-';
/** A temporary file this old was left by a process that died while writing. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

export interface VectorCacheOptions {
  /** The cache root, e.g. `~/.cache/search-mcp/embeddings`. */
  directory: string;
  /** Model and settings, e.g. `minilm-l6-v2-128`: a subdirectory of its own. */
  namespace: string;
  dimensions: number;
  /** Packs are merged into one when there are more than this many. Default 8. */
  maxPackFiles?: number;
}

export interface VectorCacheStats {
  /** Where this model's vectors are. */
  directory: string;
  files: number;
  vectors: number;
  bytes: number;
}

export interface CachedVector {
  /** Hex of `VECTOR_HASH_BYTES` bytes. */
  hash: string;
  vector: Float32Array;
}

interface Pack {
  hashes: string[];
  /** Row-major, `hashes.length × dimensions`. */
  vectors: Float32Array;
}

/** Vectors keep their bytes as float32 in platform order; only little-endian platforms share one format. */
const littleEndian = os.endianness() === 'LE';

export class VectorCache {
  readonly directory: string;
  private readonly dimensions: number;
  private readonly maxPackFiles: number;

  constructor(options: VectorCacheOptions) {
    this.directory = join(options.directory, options.namespace.replace(/[^a-zA-Z0-9._-]+/g, '-'));
    this.dimensions = options.dimensions;
    this.maxPackFiles = Math.max(1, Math.floor(options.maxPackFiles ?? 8));
  }

  /** The cached vectors of these hashes (those found; a missing directory is an empty cache). */
  async read(hashes: Iterable<string>): Promise<Map<string, Float32Array>> {
    const wanted = new Set(hashes);
    const found = new Map<string, Float32Array>();
    if (!littleEndian || wanted.size === 0) return found;
    for (const file of await this.packFiles()) {
      if (found.size === wanted.size) break;
      const pack = await this.readPack(file);
      if (pack === undefined) continue;
      const { dimensions } = this;
      pack.hashes.forEach((hash, row) => {
        if (!wanted.has(hash) || found.has(hash)) return;
        found.set(hash, pack.vectors.slice(row * dimensions, (row + 1) * dimensions));
      });
    }
    return found;
  }

  /** Adds vectors as a new pack (written whole, then renamed into place); merges packs when there are many. */
  async write(entries: readonly CachedVector[]): Promise<void> {
    if (!littleEndian) return;
    const valid = entries.filter(
      (entry) => entry.vector.length === this.dimensions && /^[0-9a-f]{32}$/.test(entry.hash),
    );
    if (valid.length === 0) return;
    await mkdir(this.directory, { recursive: true });
    await this.writePack(valid);
    const files = await this.packFiles();
    if (files.length > this.maxPackFiles) await this.compact(files);
  }

  async stats(): Promise<VectorCacheStats> {
    let vectors = 0;
    let bytes = 0;
    let files = 0;
    for (const file of await this.packFiles()) {
      try {
        const info = await stat(join(this.directory, file));
        const count = Math.floor((info.size - HEADER_BYTES) / (VECTOR_HASH_BYTES + this.dimensions * 4));
        if (count < 0) continue;
        files++;
        bytes += info.size;
        vectors += count;
      } catch {
        // Removed by a concurrent compaction.
      }
    }
    return { directory: this.directory, files, vectors, bytes };
  }

  private async packFiles(): Promise<string[]> {
    try {
      // Newest first (names start with a timestamp), so a recent pack answers before an old one.
      return (await readdir(this.directory))
        .filter((name) => PACK_PATTERN.test(name))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  private async readPack(file: string): Promise<Pack | undefined> {
    let buffer: Buffer;
    try {
      buffer = await readFile(join(this.directory, file));
    } catch {
      return undefined;
    }
    if (buffer.length < HEADER_BYTES) return undefined;
    const magic = buffer.readUInt32LE(0);
    const version = buffer.readUInt32LE(4);
    const dimensions = buffer.readUInt32LE(8);
    const count = buffer.readUInt32LE(12);
    const vectorBytes = count * dimensions * 4;
    if (
      magic !== MAGIC ||
      version !== FORMAT_VERSION ||
      dimensions !== this.dimensions ||
      buffer.length !== HEADER_BYTES + count * VECTOR_HASH_BYTES + vectorBytes
    ) {
      return undefined;
    }
    const hashes: string[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const start = HEADER_BYTES + i * VECTOR_HASH_BYTES;
      hashes[i] = buffer.toString('hex', start, start + VECTOR_HASH_BYTES);
    }
    // Copied into an aligned array: a Buffer's offset need not be a multiple of 4.
    const vectors = new Float32Array(count * dimensions);
    const vectorStart = HEADER_BYTES + count * VECTOR_HASH_BYTES;
    new Uint8Array(vectors.buffer).set(buffer.subarray(vectorStart, vectorStart + vectorBytes));
    for (let i = 0; i < vectors.length; i++) if (!Number.isFinite(vectors[i])) return undefined;
    return { hashes, vectors };
  }

  private async writePack(entries: readonly CachedVector[]): Promise<string> {
    const { dimensions } = this;
    const count = entries.length;
    const buffer = Buffer.alloc(HEADER_BYTES + count * (VECTOR_HASH_BYTES + dimensions * 4));
    buffer.writeUInt32LE(MAGIC, 0);
    buffer.writeUInt32LE(FORMAT_VERSION, 4);
    buffer.writeUInt32LE(dimensions, 8);
    buffer.writeUInt32LE(count, 12);
    const vectorStart = HEADER_BYTES + count * VECTOR_HASH_BYTES;
    entries.forEach((entry, i) => {
      buffer.write(entry.hash, HEADER_BYTES + i * VECTOR_HASH_BYTES, VECTOR_HASH_BYTES, 'hex');
      const bytes = new Uint8Array(entry.vector.buffer, entry.vector.byteOffset, dimensions * 4);
      buffer.set(bytes, vectorStart + i * dimensions * 4);
    });
    const unique = `${Date.now().toString(36).padStart(9, '0')}-${process.pid.toString(36)}-${randomBytes(4).toString('hex')}`;
    const name = `pack-${unique}.vec`;
    const temporary = join(this.directory, `${TEMPORARY_PREFIX}${unique}`);
    try {
      await writeFile(temporary, buffer);
      await rename(temporary, join(this.directory, name));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    return name;
  }

  /** Merges `files` into one pack (each hash once), then removes them; also sweeps dead temporary files. */
  private async compact(files: readonly string[]): Promise<void> {
    const merged = new Map<string, Float32Array>();
    const { dimensions } = this;
    for (const file of files) {
      const pack = await this.readPack(file);
      if (pack === undefined) continue;
      pack.hashes.forEach((hash, row) => {
        if (!merged.has(hash)) merged.set(hash, pack.vectors.subarray(row * dimensions, (row + 1) * dimensions));
      });
    }
    const written = await this.writePack(Array.from(merged, ([hash, vector]) => ({ hash, vector })));
    for (const file of files) {
      if (file !== written) await unlink(join(this.directory, file)).catch(() => undefined);
    }
    const now = Date.now();
    for (const name of await readdir(this.directory).catch(() => [] as string[])) {
      if (!name.startsWith(TEMPORARY_PREFIX)) continue;
      const path = join(this.directory, name);
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && now - info.mtimeMs > STALE_TEMPORARY_MS) await unlink(path).catch(() => undefined);
    }
  }
}
