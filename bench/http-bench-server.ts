/**
 * The server side of bench/http-bench.ts: `buildHttpApp` (apps/http-server/src/http-app.ts) built the way
 * apps/http-server/test/http-test-support.ts builds it, with one in-process registry tool (`local:echo`) and
 * server-everything over stdio, listening on 127.0.0.1 (random port).
 *
 * Two ways to use it:
 *   - imported: `startBenchServer()` runs the server in the calling process (the bench's "in-process" mode);
 *   - spawned with an IPC channel (`node --import tsx bench/http-bench-server.ts`, stdio [..., 'ipc']): it starts,
 *     sends `{ type: 'ready', url, pid }`, then answers `{ id, op: 'stats' | 'memory' | 'close' }` messages with
 *     `{ id, result }` or `{ id, error }`, and exits after `close` (or when the parent goes away).
 *
 * Not a product entry point: settings a benchmark needs (rate limit off, silent logger, more sessions than the
 * default cap) are fixed here.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { ToolRegistry } from '@search-mcp/catalog';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import type { buildHttpApp as BuildHttpApp } from '../apps/http-server/src/http-app.js';
import { createSearchMcpRuntime } from '@search-mcp/runtime';
import { buildWithPackagesOutside } from './src/packages-outside-build.js';
import {
  findGarbageCollector,
  isEsbuildService,
  packageBinEntry,
  settleMemory,
  type GarbageCollectorSource,
  type ProcessInfo,
} from './src/bench-support.js';

export const benchToken = 'bench-token-0123456789-abcdefghijklmnop';
/** The default cap is 100 open sessions; the bench opens 200 at once (plus its own load session). */
export const benchMaxSessions = 256;

const benchDirectory = dirname(fileURLToPath(import.meta.url));
/**
 * The HTTP app has no library entry (its package ships only the binary), so the bench builds its source with esbuild
 * (ESM for Node 20, its packages left to node_modules: src/packages-outside-build.ts) and imports that. Not its source
 * through tsx: tsx keeps function names, wrapping every function the code creates in a `__name` call the built app
 * does not make, a cost per request that fell on the leg creating the most closures (about 2 % of a 2026-07-28
 * request under `--profile`). `HTTP_BENCH_APP` names another copy of `http-app.ts` (an older checkout of
 * apps/http-server/src inside the repo, so its imports resolve): the same bench against the code before a change, in
 * the same conditions.
 */
const benchApp = process.env['HTTP_BENCH_APP'];
const appSource = benchApp ? resolve(benchApp) : resolve(benchDirectory, '../apps/http-server/src/http-app.ts');
const { buildHttpApp } = (await import(pathToFileURL(await bundleApp(appSource)).href)) as {
  buildHttpApp: typeof BuildHttpApp;
};

/**
 * Bundles `http-app.ts` into apps/http-server/.bench-build/ (inside the app, so the bundle's `../package.json` and its
 * packages resolve as the built app's do), one file per copy of the source; returns its path.
 */
async function bundleApp(source: string): Promise<string> {
  const sourceDirectory = dirname(source);
  const outfile = join(dirname(sourceDirectory), '.bench-build', `${basename(sourceDirectory)}-http-app.mjs`);
  return buildWithPackagesOutside(source, outfile);
}
const appDirectory = resolve(benchDirectory, '..', 'apps', 'http-server');
/** server-everything is a devDependency of apps/http-server: resolve it from there, like the test does. */
const requireFromApp = createRequire(join(appDirectory, 'package.json'));

const psArguments = (pid: number) => ['-o', 'pid=,args=', '--ppid', String(pid)];

/** Direct children of `pid` (`ps -o pid=,args= --ppid`), tsx's esbuild service included, this `ps` itself not. */
export function childrenOf(pid: number): ProcessInfo[] {
  let output = '';
  try {
    output = execFileSync('ps', psArguments(pid), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    // ps exits 1 when there is no such process.
  }
  const self = ['ps', ...psArguments(pid)].join(' ');
  return output
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), command: (match[2] ?? '').trim() }))
    .filter((child) => child.command !== self);
}

export interface ServerStats {
  pid: number;
  sessionCount: number;
  backends: Array<{ id: string; state: string; pid?: number }>;
  /** Children of the server process, without tsx's esbuild service. */
  childProcesses: ProcessInfo[];
  /** Listeners on the shared client manager: every MCP session's server adds one and must remove it on close. */
  toolsChangedListeners: number;
}

export interface MemoryReading {
  gc: GarbageCollectorSource;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** `space_size` of V8's new and old space. */
  newSpaceSize: number;
  oldSpaceSize: number;
}

export interface BenchServer {
  url: string;
  pid: number;
  stats(): Promise<ServerStats>;
  /** After forced GCs. */
  memory(): Promise<MemoryReading>;
  close(): Promise<void>;
}

/** One in-process tool, `local:echo` (the message back): a backend that costs nothing, for measuring the app itself. */
export function echoRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    {
      name: 'echo',
      description: 'Echo the message back',
      parameters: [{ name: 'message', type: 'string', description: 'What to echo', required: true }],
    },
    (args) => String(args['message']),
  );
  return registry;
}

export async function startBenchServer(): Promise<BenchServer> {
  const { gc, source: gcSource } = findGarbageCollector();
  const config = parseConfig({
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [packageBinEntry('@modelcontextprotocol/server-everything', requireFromApp)],
      },
    },
    auth: { tokens: [{ id: 'bench', token: benchToken }] },
  });
  const registry = echoRegistry();
  const runtime = createSearchMcpRuntime({ config, logger: silentLogger, registries: [registry] });
  await runtime.manager.startAll();
  const broken = runtime.manager.status().filter((status) => status.state !== 'running');
  if (broken.length > 0) {
    await runtime.close();
    throw new Error(
      `backend not running: ${broken.map((status) => `${status.id}=${status.state} ${status.lastError ?? ''}`).join('; ')}`,
    );
  }
  const http = await buildHttpApp({
    runtime,
    logger: silentLogger,
    tokens: config.auth.tokens,
    allowAnonymous: false,
    version: 'bench',
    rateLimitPerMinute: 0,
    maxSessions: benchMaxSessions,
  });
  await http.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = http.app.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    pid: process.pid,
    stats: async () => ({
      pid: process.pid,
      sessionCount: http.mcp.sessionCount,
      backends: runtime.manager.status().map((status) => ({
        id: status.id,
        state: status.state,
        ...(status.pid !== undefined ? { pid: status.pid } : {}),
      })),
      childProcesses: childrenOf(process.pid).filter((child) => !isEsbuildService(child)),
      toolsChangedListeners: runtime.manager.listenerCount('tools-changed'),
    }),
    memory: async () => {
      await settleMemory(gc);
      const usage = process.memoryUsage();
      const spaces = v8.getHeapSpaceStatistics();
      const spaceSize = (name: string) => spaces.find((space) => space.space_name === name)?.space_size ?? 0;
      return {
        gc: gcSource,
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        heapTotal: usage.heapTotal,
        external: usage.external,
        arrayBuffers: usage.arrayBuffers,
        newSpaceSize: spaceSize('new_space'),
        oldSpaceSize: spaceSize('old_space'),
      };
    },
    close: () => {
      closing ??= (async () => {
        await http.close();
        await runtime.close();
      })();
      return closing;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Child-process mode

type Request = { id: number; op: 'stats' | 'memory' | 'close' };

async function serveOverIpc(): Promise<void> {
  const send = (message: unknown) =>
    new Promise<void>((done) => process.send?.(message, undefined, undefined, () => done()));
  let server: BenchServer;
  try {
    server = await startBenchServer();
  } catch (error) {
    await send({ type: 'failed', error: String((error as Error)?.stack ?? error) });
    process.exit(1);
  }
  process.on('disconnect', () => {
    // The bench went away: take the backends down with us.
    void server.close().finally(() => process.exit(0));
  });
  process.on('message', (message: Request) => {
    void (async () => {
      try {
        const result =
          message.op === 'stats'
            ? await server.stats()
            : message.op === 'memory'
              ? await server.memory()
              : await server.close();
        await send({ id: message.id, result: result ?? null });
        if (message.op === 'close') process.disconnect();
      } catch (error) {
        await send({ id: message.id, error: String((error as Error)?.stack ?? error) });
      }
    })();
  });
  await send({ type: 'ready', url: server.url, pid: process.pid });
}

if (
  process.argv[1] &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  typeof process.send === 'function'
) {
  await serveOverIpc();
}
