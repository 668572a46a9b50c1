/**
 * 2025 sessions that survive their replica (apps/http-server/README.md, "Replicas"): two HTTP apps in one process,
 * each over its own runtime, share ONE in-process cluster store and stand for two replicas. A real SDK client (1.x
 * and 2.x, 2025-11-25 and 2025-06-18) talks through a tiny forwarder on 127.0.0.1 that plays the load balancer:
 * it opens its session on replica A, then the forwarder sends its new requests to replica B, which has never seen
 * the session and rebuilds it from its record. The same moves once more over a real `redis-server`, each replica with
 * its own Redis store client, as deployed replicas are.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import type { Logger } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alphaToken,
  everythingEntry,
  mainToken,
  request,
  type Running,
  startApp,
} from '../../test/http-test-support.js';

const stepTimeoutMs = 60_000;
/**
 * The one backend a moved session calls (server-everything's echo and long-running operation): each replica here is a
 * runtime of its own, and every backend is a process per replica, so the replicas start only this one.
 */
const everythingOnly = { mcpServers: { everything: { command: process.execPath, args: [everythingEntry] } } };
const streamAccept = { accept: 'application/json, text/event-stream' };

/** A load balancer in a few lines: every new request goes to `target`; requests already running stay where they are. */
class Forwarder {
  target = '';
  private readonly server: Server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      `${this.target}${incoming.url ?? '/'}`,
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What the test asks of a client, whichever SDK made it. */
interface SessionClient {
  sessionId(): string | undefined;
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>, onProgress?: (progress: number) => void): Promise<unknown>;
  setLoggingLevel(level: 'debug' | 'warning'): Promise<void>;
  terminate(): Promise<void>;
  close(): Promise<void>;
}

const clients: Array<{ label: string; connect(url: string): Promise<SessionClient> }> = [
  {
    label: 'the 1.x SDK client (2025-11-25)',
    connect: async (url) => {
      const transport = new Sdk1Transport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${mainToken}` } },
      });
      const client = new Sdk1Client({ name: 'replica-test-1', version: '1' });
      await client.connect(transport);
      return {
        sessionId: () => transport.sessionId,
        listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        callTool: (name, args, onProgress) =>
          client.callTool({ name, arguments: args }, undefined, {
            ...(onProgress ? { onprogress: (update) => onProgress(update.progress) } : {}),
          }),
        setLoggingLevel: async (level) => {
          await client.setLoggingLevel(level);
        },
        terminate: () => transport.terminateSession(),
        close: () => client.close(),
      };
    },
  },
  ...(['2025-06-18', '2025-11-25'] as const).map((version) => ({
    label: `the 2.x SDK client (${version})`,
    connect: async (url: string): Promise<SessionClient> => {
      const transport = new Sdk2Transport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${mainToken}` } },
      });
      const client = new Sdk2Client({ name: 'replica-test-2', version: '2' }, { supportedProtocolVersions: [version] });
      await client.connect(transport);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      return {
        sessionId: () => transport.sessionId,
        listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        callTool: (name, args, onProgress) =>
          client.callTool(
            { name, arguments: args },
            onProgress ? { onprogress: (update) => onProgress(update.progress) } : {},
          ),
        setLoggingLevel: async (level) => {
          await client.setLoggingLevel(level);
        },
        terminate: () => transport.terminateSession(),
        close: () => client.close(),
      };
    },
  })),
];

/** The store both replicas share, counting writes of session records (a bad request must write none). */
function countingStore(): { store: ClusterStore; sessionWrites: () => number } {
  const store = createMemoryClusterStore();
  let writes = 0;
  const counted = (key: string) => {
    if (key.startsWith('mcp-session:')) writes += 1;
  };
  return {
    store: {
      ...store,
      setRecord: (key, value, options) => {
        counted(key);
        return store.setRecord(key, value, options);
      },
      setRecordIfAbsent: (key, value, options) => {
        counted(key);
        return store.setRecordIfAbsent(key, value, options);
      },
      touchRecord: (key, ttlMs) => {
        counted(key);
        return store.touchRecord(key, ttlMs);
      },
      deleteRecord: (key) => {
        counted(key);
        return store.deleteRecord(key);
      },
    },
    sessionWrites: () => writes,
  };
}

/** The MCP endpoint's log lines of both replicas (the rebuild and the replays of state say here when they fail). */
const sessionLog: string[] = [];
const sessionLogger: Logger = {
  debug: () => {},
  info: (message) => sessionLog.push(`info ${message}`),
  warn: (message, fields) => sessionLog.push(`warn ${message} ${JSON.stringify(fields)}`),
  error: (message, fields) => sessionLog.push(`error ${message} ${JSON.stringify(fields)}`),
  child: () => sessionLogger,
};

let shared: ReturnType<typeof countingStore>;
let replicaA: Running;
let replicaB: Running;
let balancer: Forwarder;
let balancerUrl: string;

beforeAll(async () => {
  shared = countingStore();
  [replicaA, replicaB] = await Promise.all([
    startApp({ config: everythingOnly, app: { clusterStore: shared.store, logger: sessionLogger } }),
    startApp({ config: everythingOnly, app: { clusterStore: shared.store, logger: sessionLogger } }),
  ]);
  balancer = new Forwarder();
  balancerUrl = await balancer.listen();
}, stepTimeoutMs);

afterAll(async () => {
  await balancer?.close();
  await Promise.all([replicaA?.close(), replicaB?.close()]);
  await shared?.store.close();
});

const listTools = (url: string, sessionId: string, token = mainToken) =>
  request(url, '/mcp', {
    token,
    headers: { 'mcp-session-id': sessionId, ...streamAccept },
    body: { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
  });

interface ReplicaPair {
  a: Running;
  b: Running;
  /** What the test reads the records from (the store of either replica). */
  store: ClusterStore;
}

/**
 * A client opens its session on replica A; the balancer moves it to B, which rebuilds the session; it is ended
 * through B. On the way: the log level is kept, another token gets 404, two racing requests build one session.
 */
async function moveSession(pair: ReplicaPair, connect: (url: string) => Promise<SessionClient>): Promise<void> {
  balancer.target = pair.a.url;
  const client = await connect(balancerUrl);
  try {
    const sessionId = client.sessionId() ?? '';
    expect(await client.listTools()).toEqual(['tool_discovery', 'tool_execute']);
    await client.setLoggingLevel('warning');
    expect(await pair.store.getRecord(`mcp-session:${sessionId}`)).toMatchObject({
      principal: 'main',
      logLevel: 'warning',
    });

    // Another token never learns the session exists, and its request rebuilds nothing.
    const sessionsOnB = pair.b.http.mcp.sessionCount;
    const stranger = await listTools(pair.b.url, sessionId, alphaToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body?.error?.message).toBe('Session not found');
    expect(pair.b.http.mcp.sessionCount).toBe(sessionsOnB);

    // The balancer moves the client to B: the same client object goes on, B rebuilds the session once.
    balancer.target = pair.b.url;
    const [tools, again] = await Promise.all([client.listTools(), client.listTools()]);
    expect(tools).toEqual(['tool_discovery', 'tool_execute']);
    expect(again).toEqual(tools);
    expect(pair.b.http.mcp.sessionCount).toBe(sessionsOnB + 1);

    const discovery = (await client.callTool('tool_discovery', { query: 'echo back the input string' })) as {
      structuredContent?: { results: Array<{ toolKey: string }> };
    };
    expect(discovery.structuredContent?.results[0]?.toolKey).toBe('everything:echo');
    const progress: number[] = [];
    const result = await client.callTool(
      'tool_execute',
      { toolKey: 'everything:trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      (step) => progress.push(step),
    );
    expect(JSON.stringify(result)).toContain('Long running operation completed');
    // The SDK client may drop a final notification it reads together with the response (typescript-sdk #2580).
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    await client.setLoggingLevel('debug');
    expect(await pair.store.getRecord(`mcp-session:${sessionId}`)).toMatchObject({
      logLevel: 'debug',
      replica: expect.any(String),
    });

    // Ended through B: gone from the store, from B, and from A, which still held its copy.
    const sessionsOnA = pair.a.http.mcp.sessionCount;
    await client.terminate();
    expect(await pair.store.getRecord(`mcp-session:${sessionId}`)).toBeUndefined();
    expect(pair.b.http.mcp.sessionCount).toBe(sessionsOnB);
    await expect.poll(() => pair.a.http.mcp.sessionCount).toBe(sessionsOnA - 1);
    for (const replica of [pair.a, pair.b]) {
      expect((await listTools(replica.url, sessionId)).status).toBe(404);
    }
  } finally {
    await client.close();
  }
}

describe.each(clients)('a 2025 session of $label', ({ connect }) => {
  it('goes on at another replica, keeps its log level, is bound to its token and ends everywhere', {
    timeout: stepTimeoutMs,
  }, async () => {
    sessionLog.length = 0;
    await moveSession({ a: replicaA, b: replicaB, store: shared.store }, connect);
    // One rebuild on B (its replays of initialize and log level included), and A's copy followed the level set at
    // B: nothing failed on the way.
    expect(sessionLog).toEqual(['info resumed an MCP session another replica opened']);
  });
});

describe('two replicas over a real Redis, each with its own store client', () => {
  let redis: RedisServer;
  let stores: ClusterStore[] = [];
  let replicas: Running[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    stores = await Promise.all([0, 1].map(() => createRedisClusterStore({ url: redis.url })));
    replicas = await Promise.all(
      stores.map((clusterStore) => startApp({ config: everythingOnly, app: { clusterStore } })),
    );
  }, stepTimeoutMs);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  it('moves a session of the 1.x SDK client from one to the other', { timeout: stepTimeoutMs }, async () => {
    const [a, b] = replicas;
    const [store] = stores;
    if (!a || !b || !store) throw new Error('the replicas did not start');
    await moveSession({ a, b, store }, clients[0]?.connect ?? (() => Promise.reject(new Error('no client'))));
  });
});

describe('a replica that shut down', () => {
  it('leaves its sessions to the others; a stream resumed there starts anew', { timeout: stepTimeoutMs }, async () => {
    // Its sessions only list the meta-tools: no backend.
    const replicaC = await startApp({ backends: 'none', app: { clusterStore: shared.store } });
    let closed = false;
    try {
      const opened = await fetch(`${replicaC.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mainToken}`, 'content-type': 'application/json', ...streamAccept },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(opened.status).toBe(200);
      const sessionId = opened.headers.get('mcp-session-id') ?? '';
      // The priming event's id names a stream of C's: B never held it.
      const lastEventId = /^id: *(\S+)$/m.exec(await opened.text())?.[1];
      expect(lastEventId).toEqual(expect.any(String));
      await replicaC.close();
      closed = true;

      const headers = {
        authorization: `Bearer ${mainToken}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      };
      const stream = new AbortController();
      const resumed = await fetch(`${replicaB.url}/mcp`, {
        headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId ?? '' },
        signal: stream.signal,
      });
      // Not the SDK's 400 for an unknown event id: a new stream of the same session (nothing of C's to replay).
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-type')).toContain('text/event-stream');
      stream.abort();
      const listed = await fetch(`${replicaB.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', ...streamAccept },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      });
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain('tool_discovery');
    } finally {
      if (!closed) await replicaC.close();
    }
  });
});

describe('a request naming a session no replica knows', () => {
  it('gets the normal 404, and nothing is written', async () => {
    const writes = shared.sessionWrites();
    for (const sessionId of ['not-a-session', '6f1c2a9e-0000-4000-8000-000000000000', `${'x'.repeat(300)}\u00e9`]) {
      const answer = await listTools(replicaB.url, sessionId);
      expect(answer.status).toBe(404);
      expect(answer.body?.error).toEqual({ code: -32001, message: 'Session not found' });
    }
    expect(shared.sessionWrites()).toBe(writes);
  });
});

describe('a DELETE at a replica that does not hold the session', () => {
  it('ends it everywhere without rebuilding it there first', { timeout: stepTimeoutMs }, async () => {
    const opened = await fetch(`${replicaA.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mainToken}`, 'content-type': 'application/json', ...streamAccept },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(opened.status).toBe(200);
    await opened.text();
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    const sessionsOnA = replicaA.http.mcp.sessionCount;
    const sessionsOnB = replicaB.http.mcp.sessionCount;
    sessionLog.length = 0;
    const ending = (token: string) =>
      fetch(`${replicaB.url}/mcp`, {
        method: 'DELETE',
        headers: {
          authorization: `Bearer ${token}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
      });

    // Another token's DELETE is a 404 that ends nothing.
    expect((await ending(alphaToken)).status).toBe(404);
    expect(await shared.store.getRecord(`mcp-session:${sessionId}`)).toBeDefined();
    expect((await ending(mainToken)).status).toBe(200);
    expect(sessionLog.filter((line) => line.includes('resumed'))).toEqual([]);
    expect(replicaB.http.mcp.sessionCount).toBe(sessionsOnB);
    expect(await shared.store.getRecord(`mcp-session:${sessionId}`)).toBeUndefined();
    await expect.poll(() => replicaA.http.mcp.sessionCount).toBe(sessionsOnA - 1);
    expect((await listTools(replicaA.url, sessionId)).status).toBe(404);
  });
});
