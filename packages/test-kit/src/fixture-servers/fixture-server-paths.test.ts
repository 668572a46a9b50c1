import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fixtureServerNames,
  fixtureServerPath,
  fixtureServersDirectory,
  startRawHttpFixture,
} from './fixture-server-paths.js';

describe('fixture servers', () => {
  it('are every script of the folder but the tool fixture module, each at its path', () => {
    const scripts = readdirSync(fixtureServersDirectory).filter((file) => file.endsWith('.mjs'));
    // fixture-server.mjs is the tool fixture's module: imported (stdio-fixture-server.mjs, tests), never spawned.
    expect(scripts.filter((file) => file !== 'fixture-server.mjs').sort()).toEqual([...fixtureServerNames].sort());
    for (const name of fixtureServerNames) expect(existsSync(fixtureServerPath(name))).toBe(true);
  });

  it('start over HTTP and hand back the URL they listen on', async () => {
    const { child, url } = await startRawHttpFixture();
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    } finally {
      child.kill();
    }
  });
});
