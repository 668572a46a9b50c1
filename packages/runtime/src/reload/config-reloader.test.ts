/**
 * The reloader's own rules over real files and the real watcher: what it hands the manager and the catalog, what it
 * logs, what it rejects, one reload at a time. The backends side (processes started, stopped, restarted) is tested
 * with real servers through the built apps (the `hot-reload-*` tests of both apps); here the manager is a recorder that
 * answers with the real `diffServerConfigs`, so a test can hold a reload open.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createGrowingSecretRedactor,
  createJsonLineLogger,
  diffServerConfigs,
  type ResolvedConfig,
} from '@search-mcp/shared';
import { loadConfig } from '@search-mcp/shared/node';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConfigReloader, createConfigReloader } from './config-reloader.js';
import type { ConfigReload, ReconfigurableServers, ServerReconfiguration } from './reload-types.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const server = (marker: string, extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: ['-e', marker],
  ...extra,
});

/** A manager that records each config it is given and answers with the real diff; `hold()` keeps the next open. */
class RecordingServers implements ReconfigurableServers {
  readonly configs: ResolvedConfig[] = [];
  running = 0;
  maxRunning = 0;
  failNext: Error | undefined;
  private gate: Promise<void> | undefined;
  private entered: (() => void) | undefined;

  /** Servers whose start fails, with the reason `status()` gives. */
  readonly failingStarts = new Map<string, string>();

  constructor(private current: ResolvedConfig) {}

  status() {
    // As the manager does: a broken entry is failed with its reason, never started.
    return Object.values(this.current.mcpServers).map(({ id, configError }) => {
      const lastError = configError ?? this.failingStarts.get(id);
      return lastError === undefined ? { id, state: 'running' } : { id, state: 'failed', lastError };
    });
  }

  /** The next reconfigure waits for the returned `release`; `entered` resolves when it has begun. */
  hold(): { entered: Promise<void>; release: () => void } {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const entered = new Promise<void>((resolve) => {
      this.entered = resolve;
    });
    return { entered, release };
  }

  async reconfigure(config: ResolvedConfig): Promise<ServerReconfiguration> {
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      this.configs.push(config);
      this.entered?.();
      this.entered = undefined;
      const gate = this.gate;
      this.gate = undefined;
      await gate;
      if (this.failNext) {
        const failure = this.failNext;
        this.failNext = undefined;
        throw failure;
      }
      const diff = diffServerConfigs(this.current, config);
      this.current = config;
      return { ...diff, notApplied: [] };
    } finally {
      this.running -= 1;
    }
  }
}

interface Setup {
  file: string;
  directory: string;
  servers: RecordingServers;
  reloader: ConfigReloader;
  logs: Array<Record<string, unknown>>;
  reloads: ConfigReload[];
  /** Resolves with the next applied reload. */
  nextReload(): Promise<ConfigReload>;
  /** Resolves with the next log record whose message contains `text`. */
  nextLog(text: string): Promise<Record<string, unknown>>;
}

async function setup(
  initial: Record<string, unknown>,
  extra: Partial<Parameters<typeof createConfigReloader>[0]> = {},
): Promise<Setup> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-reload-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const file = join(directory, 'mcp-servers.json');
  await writeFile(file, JSON.stringify(initial));
  const config = await loadConfig(file);
  const servers = new RecordingServers(config);
  const logs: Array<Record<string, unknown>> = [];
  const logWaiters: Array<{ text: string; resolve: (record: Record<string, unknown>) => void }> = [];
  const reloads: ConfigReload[] = [];
  const reloadWaiters: Array<(reload: ConfigReload) => void> = [];
  const logger = createJsonLineLogger({
    level: 'debug',
    write: (line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      logs.push(record);
      for (const waiter of [...logWaiters]) {
        if (String(record.msg).includes(waiter.text)) {
          logWaiters.splice(logWaiters.indexOf(waiter), 1);
          waiter.resolve(record);
        }
      }
    },
  });
  const reloader = createConfigReloader({
    configPath: file,
    config,
    manager: servers,
    logger,
    debounceMs: 20,
    onReloaded: (reload) => {
      reloads.push(reload);
      reloadWaiters.shift()?.(reload);
    },
    ...extra,
  });
  cleanups.push(() => reloader.close());
  return {
    file,
    directory,
    servers,
    reloader,
    logs,
    reloads,
    nextReload: () => new Promise((resolve) => reloadWaiters.push(resolve)),
    nextLog: (text) => new Promise((resolve) => logWaiters.push({ text, resolve })),
  };
}

describe('createConfigReloader', () => {
  it('applies a saved edit through the manager and logs it as one line', async () => {
    const { file, servers, nextReload, nextLog } = await setup({ mcpServers: { kept: server('1'), old: server('2') } });
    const reloaded = nextReload();
    const summary = nextLog('config reloaded');
    await writeFile(file, JSON.stringify({ mcpServers: { kept: server('1'), old: server('3'), added: server('4') } }));

    const reload = await reloaded;
    expect(Object.keys(reload.config.mcpServers)).toEqual(['kept', 'old', 'added']);
    expect(reload.servers).toMatchObject({ added: ['added'], removed: [], changed: ['old'], unchanged: ['kept'] });
    expect(servers.configs).toEqual([reload.config]);
    expect(await summary).toMatchObject({
      level: 'info',
      msg: 'config reloaded: added added; removed none; changed old (1 unchanged)',
      component: 'config-reload',
      file,
      added: ['added'],
      removed: [],
      changed: ['old'],
      unchanged: 1,
    });
  });

  it('keeps the last good config when the file cannot be parsed, says why and where, and applies the fix', async () => {
    const { file, servers, logs, reloader, nextLog } = await setup({ mcpServers: { kept: server('1') } });
    const rejected = nextLog('rejected');
    await writeFile(file, '{ "mcpServers": { "kept": { "command": "node" }\n');
    expect(await rejected).toMatchObject({
      level: 'error',
      msg: 'config file change rejected; still serving the last good config',
      file,
      problems: [expect.stringMatching(/^invalid JSON at line 2, column 1: /)],
    });
    expect(servers.configs).toEqual([]);

    // An invalid top-level section is rejected too, with its JSON path.
    const invalid = nextLog('rejected');
    await writeFile(file, JSON.stringify({ mcpServers: { kept: server('1') }, search: { maxResults: 'many' } }));
    expect((await invalid).problems).toEqual([expect.stringMatching(/^search\.maxResults: /)]);

    await writeFile(file, JSON.stringify({ mcpServers: { kept: server('1'), fixed: server('2') } }));
    await reloader.reload();
    expect(servers.configs.map((config) => Object.keys(config.mcpServers))).toEqual([['kept', 'fixed']]);
    expect(logs.filter((record) => record.level === 'error')).toHaveLength(2);
  });

  it('keeps the last good config while the file is gone, and applies it when it is back', async () => {
    const { file, servers, nextLog, nextReload } = await setup({ mcpServers: { kept: server('1') } });
    const rejected = nextLog('rejected');
    await rm(file);
    expect(await rejected).toMatchObject({ problems: [`Config file not found: ${file}`] });
    const reloaded = nextReload();
    await writeFile(file, JSON.stringify({ mcpServers: { kept: server('1'), back: server('2') } }));
    expect((await reloaded).servers.added).toEqual(['back']);
    expect(servers.configs).toHaveLength(1);
  });

  it('sees an editor-style save (a new file renamed over the old one), and later saves too', async () => {
    const { file, directory, nextReload } = await setup({ mcpServers: { kept: server('1') } });
    for (const marker of ['2', '3']) {
      const reloaded = nextReload();
      const temporary = join(directory, `.mcp-servers.json.${marker}.tmp`);
      await writeFile(
        temporary,
        JSON.stringify({ mcpServers: { kept: server('1'), [`new${marker}`]: server(marker) } }),
      );
      await rename(temporary, file);
      expect((await reloaded).servers.added).toEqual([`new${marker}`]);
    }
  });

  it('runs one reload at a time and applies the latest edit saved meanwhile', async () => {
    const { file, servers, reloader, nextLog } = await setup({ mcpServers: { a: server('1') } });
    const held = servers.hold();
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2') } }));
    const first = reloader.reload();
    await held.entered;
    const waiting: Array<Promise<void>> = [];
    for (const id of ['c', 'd']) {
      const queued = nextLog('while a reload runs');
      await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), [id]: server(id) } }));
      waiting.push(reloader.reload());
      await queued;
    }
    held.release();
    await Promise.all([first, ...waiting]);

    expect(servers.maxRunning).toBe(1);
    // `c` was replaced by `d` before its turn came.
    expect(servers.configs.map((config) => Object.keys(config.mcpServers).join(','))).toEqual(['a,b', 'a,d']);
  });

  it('names the settings that need a restart, and hands the catalog the new config when it can take one', async () => {
    const initial = { mcpServers: { a: server('1') }, projects: { web: { optimization: 'bm25' } } };
    const edited = {
      mcpServers: { a: server('1', { enabled: false }) },
      projects: { web: { optimization: null } },
      exposure: { mode: 'proxy' },
    };
    const withoutCatalog = await setup(initial);
    const warning = withoutCatalog.nextLog('restart search-mcp to apply');
    await writeFile(withoutCatalog.file, JSON.stringify(edited));
    expect((await warning).msg).toBe('restart search-mcp to apply: exposure.mode, projects, mcpServers.a.enabled');

    const taken: ResolvedConfig[] = [];
    let catalogConfig: ResolvedConfig | undefined;
    const catalog = {
      get config(): ResolvedConfig {
        if (!catalogConfig) throw new Error('no config yet');
        return catalogConfig;
      },
      reconfigure(config: ResolvedConfig) {
        taken.push(config);
        catalogConfig = config;
        return ['search.something'];
      },
    };
    const withCatalog = await setup(initial, { catalog });
    const reloaded = withCatalog.nextReload();
    await writeFile(withCatalog.file, JSON.stringify(edited));
    const reload = await reloaded;
    expect(taken).toEqual([reload.config]);
    expect(reload.notApplied).toEqual(['search.something', 'exposure.mode']);
  });

  it('lets the redactor learn new secrets before the servers start, and never logs a secret', async () => {
    const secret = 'sk-reload-0123456789abcdef';
    const redactor = createGrowingSecretRedactor([]);
    let maskedAtStart: string | undefined;
    const { file, servers, logs, nextReload, nextLog } = await setup({ mcpServers: { a: server('1') } }, { redactor });
    const reconfigure = servers.reconfigure.bind(servers);
    servers.reconfigure = (config) => {
      maskedAtStart = redactor.redact(`token ${secret}`);
      return reconfigure(config);
    };
    const rejected = nextLog('rejected');
    // A broken edit that holds a secret: the reason names the path, never the value.
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1') }, search: { cloud: { apiKey: secret } } }));
    await rejected;
    const reloaded = nextReload();
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2', { env: { KEY: secret } }) } }));
    await reloaded;
    expect(maskedAtStart).toBe('token ***');
    expect(JSON.stringify(logs)).not.toContain(secret);
  });

  it('logs a failed apply, keeps the old config as the one in use, and retries on the next edit', async () => {
    const { file, servers, reloader, nextLog } = await setup({ mcpServers: { a: server('1') } });
    servers.failNext = new Error('manager is busy');
    const failed = nextLog('failed while applying');
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2') } }));
    expect(await failed).toMatchObject({ level: 'error', error: 'manager is busy' });

    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2'), c: server('3') } }));
    await reloader.reload();
    expect(servers.configs.at(-1)?.mcpServers.c).toBeDefined();
  });

  it('tells onReloadFailed why an edit changed nothing: a file that cannot be parsed, a refused apply', async () => {
    const failures: string[] = [];
    const waiters: Array<(reason: string) => void> = [];
    const nextFailure = () => new Promise<string>((resolve) => waiters.push(resolve));
    const { file, servers } = await setup(
      { mcpServers: { a: server('1') } },
      {
        onReloadFailed: (reason) => {
          failures.push(reason);
          waiters.shift()?.(reason);
        },
      },
    );
    const unparsable = nextFailure();
    await writeFile(file, '{ "mcpServers": ');
    expect(await unparsable).toMatch(/^invalid JSON at line 1/);

    servers.failNext = new Error('manager is busy');
    const refused = nextFailure();
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2') } }));
    expect(await refused).toBe('manager is busy');
    expect(failures).toHaveLength(2);
  });

  it('closes without waiting for a reload being applied, and logs nothing of it afterwards', async () => {
    const { file, servers, reloader, logs } = await setup({ mcpServers: { a: server('1') } });
    const held = servers.hold();
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2') } }));
    const reloading = reloader.reload();
    await held.entered;
    await reloader.close();
    held.release();
    await reloading;
    expect(logs.filter((record) => String(record.msg).startsWith('config reloaded'))).toEqual([]);
  });

  it('applies nothing after close', async () => {
    const { file, servers, reloader } = await setup({ mcpServers: { a: server('1') } });
    await reloader.close();
    await writeFile(file, JSON.stringify({ mcpServers: { a: server('1'), b: server('2') } }));
    await reloader.reload();
    expect(servers.configs).toEqual([]);
  });

  it('reports new config warnings, broken server entries and servers that failed to start', async () => {
    const { file, nextReload, logs, servers } = await setup({ mcpServers: { a: server('1') } });
    servers.failingStarts.set('c', 'spawn no-such-command ENOENT');
    const reloaded = nextReload();
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          a: server('1', { enviroment: {} }),
          b: { command: '${SEARCH_MCP_RELOAD_TEST_UNSET}' },
          c: { command: 'no-such-command' },
        },
      }),
    );
    await reloaded;
    const warnings = logs.filter((record) => record.level === 'warn');
    expect(warnings).toContainEqual(
      expect.objectContaining({ msg: 'config warning', warning: expect.stringContaining('did you mean "env"') }),
    );
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'server entry is broken; it stays failed until fixed',
        server: 'b',
        reason: expect.stringContaining('SEARCH_MCP_RELOAD_TEST_UNSET'),
      }),
    );
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'server started by the reload failed',
        server: 'c',
        reason: 'spawn no-such-command ENOENT',
      }),
    );
    // The broken entry is told once, as broken, not again as a failed start.
    expect(warnings.filter((record) => record.server === 'b')).toHaveLength(1);
  });
});
