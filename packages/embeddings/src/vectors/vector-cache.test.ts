import { mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VectorCache } from './vector-cache.js';

const dimensions = 4;

function entry(seed: number): { hash: string; vector: Float32Array } {
  return {
    hash: seed.toString(16).padStart(32, '0'),
    vector: Float32Array.from({ length: dimensions }, (_, i) => seed + i / 10),
  };
}

describe('VectorCache', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(os.tmpdir(), 'vector-cache-test-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const cache = (maxPackFiles?: number) =>
    new VectorCache({ directory: root, namespace: 'model-1', dimensions, ...(maxPackFiles ? { maxPackFiles } : {}) });

  it('reads back what was written, in a directory of its namespace, and reports its size', async () => {
    const first = cache();
    await first.write([entry(1), entry(2)]);
    const found = await cache().read([entry(1).hash, entry(2).hash, entry(3).hash]);
    expect([...found.keys()].sort()).toEqual([entry(1).hash, entry(2).hash]);
    expect(Array.from(found.get(entry(2).hash) ?? [])).toEqual(Array.from(entry(2).vector));
    expect(first.directory).toBe(join(root, 'model-1'));
    const stats = await first.stats();
    expect(stats).toMatchObject({ directory: join(root, 'model-1'), files: 1, vectors: 2 });
    expect(stats.bytes).toBe((await stat(join(first.directory, (await readdir(first.directory))[0] as string))).size);
  });

  it('keeps two models apart', async () => {
    await cache().write([entry(1)]);
    const other = new VectorCache({ directory: root, namespace: 'model-2', dimensions });
    expect((await other.read([entry(1).hash])).size).toBe(0);
  });

  it('is empty when the directory does not exist, and creates it on the first write', async () => {
    const missing = new VectorCache({ directory: join(root, 'a', 'b'), namespace: 'm', dimensions });
    expect((await missing.read([entry(1).hash])).size).toBe(0);
    expect(await missing.stats()).toMatchObject({ files: 0, vectors: 0, bytes: 0 });
    await missing.write([entry(1)]);
    expect((await missing.read([entry(1).hash])).size).toBe(1);
  });

  it('loses nothing when two writers write at the same time', async () => {
    const writers = Array.from({ length: 6 }, (_, i) => cache(100).write([entry(10 + i), entry(20 + i)]));
    await Promise.all(writers);
    const wanted = Array.from({ length: 6 }, (_, i) => [entry(10 + i).hash, entry(20 + i).hash]).flat();
    expect((await cache().read(wanted)).size).toBe(12);
    expect((await readdir(join(root, 'model-1'))).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('merges packs into one when there are more than maxPackFiles', async () => {
    const small = cache(3);
    for (let i = 0; i < 4; i++) await small.write([entry(i), entry(1)]);
    const stats = await small.stats();
    expect(stats.files).toBe(1);
    expect(stats.vectors).toBe(4);
    expect((await small.read([0, 1, 2, 3].map((i) => entry(i).hash))).size).toBe(4);
  });

  it('skips a damaged or foreign pack and still reads the good ones', async () => {
    const good = cache();
    await good.write([entry(1)]);
    await good.write([entry(2)]);
    const [damaged] = (await readdir(good.directory)).sort();
    await truncate(join(good.directory, damaged as string), 30);
    await writeFile(join(good.directory, 'pack-zzzz.vec'), 'not a pack at all');
    const found = await good.read([entry(1).hash, entry(2).hash]);
    expect(found.size).toBe(1);
  });

  it('refuses entries of the wrong length or with a malformed hash', async () => {
    const target = cache();
    await target.write([
      { hash: entry(1).hash, vector: new Float32Array(3) },
      { hash: 'not-hex', vector: new Float32Array(dimensions) },
    ]);
    expect(await target.stats()).toMatchObject({ files: 0, vectors: 0 });
  });
});
