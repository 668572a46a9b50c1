/**
 * Modern handler benchmark: what the 2.x SDK itself costs per 2026-07-28 request on each way it can serve one, with
 * the same `Server` and the same trivial `tools/call` handler, in one process (CPU only, no sockets):
 *
 *   1. `createMcpHandler(…).fetch` (what `search-mcp-http`'s 2026-07-28 leg uses): per request a classification, a
 *      per-request transport connected to a pooled instance and closed after, a web `Response` read back as text;
 *   2. `serveStdio` over an in-memory wire: one connection pinned to 2026-07-28 at its first request, every later
 *      request a message on the connected instance (the SDK's public `transport` option of `serveStdio`);
 *   3. a connected 2025-06-18 session (`InMemoryTransport`, initialized once): the SDK's share of a request on
 *      `search-mcp-http`'s sessionful 2025 leg.
 *
 *   npx tsx bench/modern-handler-bench.ts [--calls 1000] [--rounds 10]
 *
 * Each round runs a block of `calls` requests on each path in turn (so load changes on a shared machine hit all
 * three alike), after a warm-up block of each; the figure is the median over rounds of a block's process CPU (user +
 * system) per request. Writes bench/results/modern-handler.json and .md and prints the markdown.
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import * as sdk from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  formatRatio,
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  packageVersion,
  progressLog,
  round,
  writeResults,
} from './src/bench-support.js';

const { values: options } = parseArgs({
  options: { calls: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '10' } },
});
const calls = Number(options.calls);
const rounds = Number(options.rounds);
const log = progressLog('modern-handler');

type JsonRpcMessage = sdk.JSONRPCMessage;

const revision = '2026-07-28';
const envelope = {
  [sdk.PROTOCOL_VERSION_META_KEY]: revision,
  [sdk.CLIENT_INFO_META_KEY]: { name: 'modern-handler-bench', version: '1' },
  [sdk.CLIENT_CAPABILITIES_META_KEY]: {},
};
let nextId = 0;
const call = (modern: boolean) => ({
  jsonrpc: '2.0' as const,
  id: ++nextId,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hello' }, ...(modern ? { _meta: envelope } : {}) },
});

/** The same server on every path: one `tools/call` handler that echoes its argument. */
function echoServer(): sdk.Server {
  const server = new sdk.Server({ name: 'modern-handler-bench', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.['text']) }],
  }));
  return server;
}

/** A path: one request answered, its answer checked; throws on a wrong answer. */
type Path = () => Promise<void>;

function expectEcho(text: string): void {
  if (!text.includes('"text":"hello"')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
}

function createMcpHandlerPath(): Path {
  const pooled = echoServer();
  const handler = sdk.createMcpHandler(() => pooled, { legacy: 'reject' });
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': revision,
    'mcp-method': 'tools/call',
    'mcp-name': 'echo',
  });
  return async () => {
    // What the app hands it (`toHandlerRequest`): method, URL and headers, the body already parsed.
    const request = { method: 'POST', url: 'http://127.0.0.1/mcp', headers } as Request;
    const response = await handler.fetch(request, { parsedBody: call(true) });
    expectEcho(await response.text());
  };
}

/** A transport whose far side is this process: requests go in as `onmessage`, answers come out of `send`. */
function answeringWire() {
  const waiting = new Map<unknown, (message: JsonRpcMessage) => void>();
  const wire: sdk.Transport = {
    async start() {},
    async close() {
      wire.onclose?.();
    },
    async send(message) {
      if ('id' in message && ('result' in message || 'error' in message)) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    },
  };
  const ask = (message: JsonRpcMessage & { id: number | string }) =>
    new Promise<JsonRpcMessage>((resolve) => {
      waiting.set(message.id, resolve);
      wire.onmessage?.(message);
    });
  return { wire, ask };
}

async function serveStdioPath(): Promise<Path & { close(): Promise<void> }> {
  const { wire, ask } = answeringWire();
  const connection = serveStdio(() => echoServer(), { transport: wire, legacy: 'reject' });
  const path = async () => expectEcho(JSON.stringify(await ask(call(true))));
  await path();
  return Object.assign(path, { close: () => connection.close() });
}

async function sessionPath(): Promise<Path & { close(): Promise<void> }> {
  const server = echoServer();
  const [client, serverSide] = sdk.InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (message: JsonRpcMessage) => void>();
  client.onmessage = (message) => {
    if ('id' in message) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  };
  await server.connect(serverSide);
  await client.start();
  const ask = (message: JsonRpcMessage & { id: number | string }) =>
    new Promise<JsonRpcMessage>((resolve) => {
      waiting.set(message.id, resolve);
      void client.send(message);
    });
  await ask({
    jsonrpc: '2.0',
    id: 'initialize',
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'modern-handler-bench', version: '1' },
    },
  });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const path = async () => expectEcho(JSON.stringify(await ask(call(false))));
  return Object.assign(path, { close: () => server.close() });
}

/** Process CPU (user + system, µs) per request over one block of `count` requests on `path`. */
async function block(path: Path, count: number): Promise<number> {
  const started = process.cpuUsage();
  for (let index = 0; index < count; index += 1) await path();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const machine = machineInfo();
const startLoad = loadAverage();
const stdioPath = await serveStdioPath();
const session = await sessionPath();
const paths = [
  {
    key: 'createMcpHandler',
    label: '`createMcpHandler(…).fetch` (per-request transport)',
    run: createMcpHandlerPath(),
  },
  { key: 'serveStdio', label: '`serveStdio` over an in-memory wire (connected, pinned 2026-07-28)', run: stdioPath },
  { key: 'session2025', label: 'connected 2025-06-18 session (`InMemoryTransport`)', run: session as Path },
] as const;
const blocks = new Map<string, number[]>(paths.map((path) => [path.key, []]));
try {
  for (const path of paths) await block(path.run, calls);
  for (let index = 0; index < rounds; index += 1) {
    for (const path of paths) blocks.get(path.key)?.push(await block(path.run, calls));
    log(
      `round ${index + 1}/${rounds}: ${paths.map((path) => `${path.key} ${round(blocks.get(path.key)?.at(-1) ?? 0, 1)} µs`).join(', ')}`,
    );
  }
} finally {
  await stdioPath.close();
  await session.close();
}

const perRequest = Object.fromEntries(paths.map((path) => [path.key, round(median(blocks.get(path.key) ?? []), 1)]));
const session2025 = perRequest['session2025'] ?? Number.NaN;
const result = {
  machine,
  load: { start: startLoad, end: loadAverage() },
  sdk: packageVersion('@modelcontextprotocol/server', createRequire(import.meta.url)),
  settings: { calls, rounds },
  cpuMicrosecondsPerRequest: perRequest,
  blocks: Object.fromEntries(blocks),
};
const rows = paths.map(
  (path) =>
    `| ${path.label} | ${perRequest[path.key]} µs | ${formatRatio((perRequest[path.key] ?? Number.NaN) / session2025)} |`,
);
const markdown = [
  '# Modern handler: the SDK’s CPU per 2026-07-28 request, by the way it is served',
  '',
  `${machineSummary(machine)} · load ${startLoad.join(' / ')} at start · @modelcontextprotocol/server ${result.sdk}`,
  '',
  `One process, no sockets: the same \`Server\` with one \`tools/call\` handler (echo), ${calls} requests per block, the three paths in turn for ${rounds} rounds after a warm-up block each; the figure is the median over rounds of a block's process CPU per request. What the SDK adds per request on each path, before any of Search MCP's own work.`,
  '',
  '| Path | CPU per request | against the 2025 session |',
  '| --- | ---: | ---: |',
  ...rows,
  '',
].join('\n');
await writeResults('modern-handler', result, markdown);
process.stdout.write(markdown);
