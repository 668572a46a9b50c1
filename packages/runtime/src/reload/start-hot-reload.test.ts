import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonLineLogger, diffServerConfigs, parseConfig, type ResolvedConfig } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigReload } from './reload-types.js';
import { type ReloadableRuntime, startHotReload } from './start-hot-reload.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function host(config: ResolvedConfig) {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createJsonLineLogger({ write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) });
  let current = config;
  const runtime: ReloadableRuntime = {
    config,
    catalog: { config },
    manager: {
      reconfigure: async (next) => {
        const diff = diffServerConfigs(current, next);
        current = next;
        return diff;
      },
    },
  };
  return { logs, logger, runtime };
}

async function configFile(): Promise<{ file: string; config: ResolvedConfig }> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-hot-reload-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const file = join(directory, 'config.json');
  await writeFile(file, '{ "mcpServers": {} }');
  return { file, config: parseConfig({ mcpServers: {} }, { file, baseDir: directory }) };
}

describe('startHotReload', () => {
  it('is on by default: it says so and applies edits', async () => {
    const { file, config } = await configFile();
    const { logs, logger, runtime } = host(config);
    const reloads: ConfigReload[] = [];
    const reloader = startHotReload(runtime, {
      configPath: file,
      logger,
      processEnvironment: {},
      onReloaded: (reload) => reloads.push(reload),
    });
    expect(reloader).toBeDefined();
    cleanups.push(async () => reloader?.close());
    expect(logs).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^watching the config file/) }));
    await writeFile(file, JSON.stringify({ mcpServers: { added: { command: 'node' } } }));
    await reloader?.reload();
    expect(reloads.map((reload) => reload.servers.added)).toEqual([['added']]);
  });

  it('is off with SEARCH_MCP_WATCH=0 or watch: false, and says why', async () => {
    const { file, config } = await configFile();
    const { logs, logger, runtime } = host(config);
    expect(startHotReload(runtime, { configPath: file, logger, processEnvironment: { SEARCH_MCP_WATCH: 'off' } })).toBe(
      undefined,
    );
    expect(startHotReload(runtime, { configPath: file, logger, watch: false, processEnvironment: {} })).toBe(undefined);
    expect(logs.map((record) => record.because)).toEqual(['SEARCH_MCP_WATCH=off', '--no-watch']);
  });

  it('stays off with a warning when the config file cannot be watched, and does not throw', async () => {
    const { config } = await configFile();
    const { logs, logger, runtime } = host(config);
    const missing = join(tmpdir(), 'search-mcp-no-such-directory', 'config.json');
    expect(startHotReload(runtime, { configPath: missing, logger, processEnvironment: {} })).toBe(undefined);
    expect(logs).toEqual([
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/cannot be watched/), file: missing }),
    ]);
  });
});
