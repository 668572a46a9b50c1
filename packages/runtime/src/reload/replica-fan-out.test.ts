import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterMessage, createMemoryClusterStore } from '@search-mcp/cluster';
import { diffServerConfigs, type Logger, parseConfig, type ResolvedConfig, silentLogger } from '@search-mcp/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfigReload } from './reload-types.js';
import { createReplicaFanOut, type ReplicaAction, type ReplicaActionTargets } from './replica-fan-out.js';
import { startHotReload } from './start-hot-reload.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function configFile(servers: Record<string, unknown> = { docs: { command: 'node' } }) {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-replicas-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const file = join(directory, 'config.json');
  await writeFile(file, JSON.stringify({ mcpServers: servers }));
  return { file, config: parseConfig({ mcpServers: servers }, { file, baseDir: directory }) };
}

/** A replica: its backends' actions as they are done, its config as reloads leave it. */
function replica(config: ResolvedConfig) {
  const done: string[] = [];
  let current = config;
  const targets: ReplicaActionTargets = {
    manager: {
      restart: async (id) => void done.push(`restart ${id}`),
      start: async (id) => void done.push(`start ${id}`),
      stop: async (id) => void done.push(`stop ${id}`),
      status: () => Object.keys(current.mcpServers).map((id) => ({ id })),
    },
    catalog: {
      get config() {
        return current;
      },
      quarantined: async () => [],
      approve: async (serverId, tool, options) => {
        done.push(`approve ${serverId} ${tool ?? '*'} ${JSON.stringify(options?.expected ?? {})}`);
        return [tool ?? 'all'];
      },
    },
  };
  const manager = {
    reconfigure: async (next: ResolvedConfig) => {
      const diff = diffServerConfigs(current, next);
      current = next;
      return diff;
    },
  };
  return { done, targets, manager, config: () => current };
}

function twoStores() {
  const first = createMemoryClusterStore({ shared: true });
  const second = createMemoryClusterStore({ sameStateAs: first });
  cleanups.push(() => first.close());
  cleanups.push(() => second.close());
  return [first, second] as const;
}

const applied = (fanOut: ReturnType<typeof createReplicaFanOut>) =>
  new Promise<{ action: ReplicaAction; error?: unknown }>((resolve) => {
    const stop = fanOut.onApplied((action, error) => {
      stop();
      resolve({ action, error });
    });
  });

describe('createReplicaFanOut', () => {
  it("applies another replica's server actions and approvals, never its own", async () => {
    const [storeA, storeB] = twoStores();
    const { config } = await configFile();
    const a = replica(config);
    const b = replica(config);
    const fanOutA = createReplicaFanOut(storeA, a.targets, silentLogger);
    const fanOutB = createReplicaFanOut(storeB, b.targets, silentLogger);
    cleanups.push(fanOutA.close, fanOutB.close);
    expect(fanOutA.shared).toBe(true);

    let heard = applied(fanOutB);
    await fanOutA.publish({ kind: 'server', action: 'disable', serverId: 'docs' });
    expect(await heard).toEqual({ action: { kind: 'server', action: 'disable', serverId: 'docs' } });
    heard = applied(fanOutB);
    await fanOutA.publish({ kind: 'approve', serverId: 'docs', tool: 'search', hashes: { search: 'sha256:1' } });
    await heard;
    // A server this replica's config does not run is left alone.
    heard = applied(fanOutB);
    await fanOutA.publish({ kind: 'server', action: 'restart', serverId: 'unknown' });
    await heard;
    expect(b.done).toEqual(['stop docs', 'approve docs search {"search":"sha256:1"}']);
    // Its own messages went by A without being applied there.
    expect(a.done).toEqual([]);
  });

  it('refuses an approve without hashes (only a raw publisher could send one), and logs it', async () => {
    const [storeA, storeB] = twoStores();
    const { config } = await configFile();
    const b = replica(config);
    const warnings: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (message) => warnings.push(message),
      child: () => logger,
    };
    const fanOutB = createReplicaFanOut(storeB, b.targets, logger);
    cleanups.push(fanOutB.close);
    await storeA.publish('admin-actions', { kind: 'approve', serverId: 'docs', tool: 'search' });
    await vi.waitFor(() => expect(warnings).toEqual(['ignored a message of another replica that is no admin action']));
    expect(b.done).toEqual([]);
  });

  it('publishes nothing and hears nothing without a shared store', async () => {
    const store = createMemoryClusterStore();
    cleanups.push(() => store.close());
    const heard: ClusterMessage[] = [];
    store.subscribe('admin-actions', (message) => heard.push(message));
    const { config } = await configFile();
    const fanOut = createReplicaFanOut(store, replica(config).targets, silentLogger);
    expect(fanOut.shared).toBe(false);
    await fanOut.publish({ kind: 'reload' });
    await new Promise(setImmediate);
    expect(heard).toEqual([]);
  });
});

describe('startHotReload with replicas', () => {
  it('has the other replicas read their config file when one applies an edit, and they do not tell it back', async () => {
    const [storeA, storeB] = twoStores();
    const fileA = await configFile();
    const fileB = await configFile();
    const a = replica(fileA.config);
    const b = replica(fileB.config);
    const fanOutA = createReplicaFanOut(storeA, a.targets, silentLogger);
    const fanOutB = createReplicaFanOut(storeB, b.targets, silentLogger);
    cleanups.push(fanOutA.close, fanOutB.close);
    const messages: ClusterMessage[] = [];
    storeA.subscribe('admin-actions', (message) => messages.push(message));
    const reloadsA: ConfigReload[] = [];
    const reloadsB: ConfigReload[] = [];
    const reloaderA = startHotReload(
      { config: fileA.config, catalog: a.targets.catalog, manager: a.manager, replicas: fanOutA },
      { configPath: fileA.file, processEnvironment: {}, onReloaded: (reload) => reloadsA.push(reload) },
    );
    // B's own watcher would apply its edit only after a minute: what B applies sooner came from A's message.
    const reloaderB = startHotReload(
      { config: fileB.config, catalog: b.targets.catalog, manager: b.manager, replicas: fanOutB },
      {
        configPath: fileB.file,
        processEnvironment: {},
        debounceMs: 60_000,
        onReloaded: (reload) => reloadsB.push(reload),
      },
    );
    cleanups.push(
      () => reloaderA?.close(),
      () => reloaderB?.close(),
    );

    const edited = { mcpServers: { docs: { command: 'node' }, git: { command: 'node' } } };
    await writeFile(fileB.file, JSON.stringify(edited));
    await writeFile(fileA.file, JSON.stringify(edited));
    const heardByB = applied(fanOutB);
    await reloaderA?.reload();
    expect(await heardByB).toEqual({ action: { kind: 'reload' } });
    expect(reloadsA.map((reload) => reload.servers.added)).toEqual([['git']]);
    expect(reloadsB.map((reload) => reload.servers.added)).toEqual([['git']]);
    expect(Object.keys(b.config().mcpServers)).toEqual(['docs', 'git']);
    // One message (A's): B's reload, asked for by A, was not told back.
    await new Promise(setImmediate);
    expect(messages.map((message) => message.from)).toEqual([storeA.replicaId]);
  });
});
