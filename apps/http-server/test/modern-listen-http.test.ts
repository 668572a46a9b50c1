/**
 * `subscriptions/listen` of 2026-07-28 clients on the HTTP app: the 2.x SDK's own client (pinned 2026) against the
 * whole app (auth hook, tokens, projects) over a real runtime with two real backends on 127.0.0.1. `fixture` (no
 * project) adds a tool on request and announces it; `feature` (project alpha only) sends `resources/updated` on
 * request. Each listener hears only about servers its token and project can see.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type McpSubscription, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CliProcess, startCli } from './cli-process.js';
import {
  alphaToken,
  eventually,
  fixtureServer,
  mainToken,
  mcpClient,
  type Running,
  request,
  slowServer,
  startApp,
  temporaryDirectory,
} from './http-test-support.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const Loose = z.looseObject({});
const watched = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
] as const;
type Watched = (typeof watched)[number];

interface Listener {
  client: Client;
  heard: Array<{ method: Watched; params?: Record<string, unknown> }>;
  /** Resolves with the next notification of `method` (or one already heard and not yet taken). */
  next(method: Watched): Promise<Record<string, unknown> | undefined>;
}

let app: Running;

beforeAll(async () => {
  app = await startApp({
    config: {
      mcpServers: {
        fixture: { command: process.execPath, args: [fixtureServer] },
        feature: {
          command: process.execPath,
          args: [featureServer, '--name', 'feature', '--resources', '2'],
          projects: ['alpha'],
        },
      },
      exposure: { mode: 'proxy' },
    },
    // Open streams are not calls in flight: if the shutdown waited for them, the last test would time out.
    app: { maxListenStreamsPerToken: 2, shutdownGraceMs: 120_000 },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function modernClient(token: string, project?: string, base = app.url): Promise<Listener> {
  const client = new Client(
    { name: 'listen-test', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (project) headers['x-project-id'] = project;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  const heard: Listener['heard'] = [];
  const taken = new Set<number>();
  const waiters: Array<() => void> = [];
  for (const method of watched) {
    client.setNotificationHandler(method, (notification) => {
      heard.push({ method, ...(notification.params ? { params: notification.params } : {}) });
      for (const wake of waiters.splice(0)) wake();
    });
  }
  const next = async (method: Watched) => {
    for (;;) {
      const index = heard.findIndex((entry, at) => entry.method === method && !taken.has(at));
      if (index >= 0) {
        taken.add(index);
        return heard[index]?.params;
      }
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  return { client, heard, next };
}

const everything = (uris: string[]) => ({
  toolsListChanged: true,
  promptsListChanged: true,
  resourcesListChanged: true,
  resourceSubscriptions: uris,
});

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.request({ method: 'tools/call', params: { name, arguments: args } }, Loose);

describe('subscriptions/listen over HTTP (2026-07-28)', () => {
  let plain: Listener;
  let alpha: Listener;
  let plainStream: McpSubscription;
  let alphaStream: McpSubscription;

  it('acknowledges what each caller may hear: a resource of a server its project cannot see is left out', async () => {
    plain = await modernClient(mainToken);
    alpha = await modernClient(mainToken, 'alpha');
    // server/discover says the streams take resource subscriptions.
    expect(plain.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
    plainStream = await plain.client.listen(everything(['res://feature/0']));
    alphaStream = await alpha.client.listen(everything(['res://feature/0', 'res://nowhere/1']));
    expect(plainStream.honoredFilter).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    expect(alphaStream.honoredFilter).toEqual(everything(['res://feature/0']));
    // Subscribed at the backend while the stream is open.
    const subscriptions = (await call(alpha.client, 'feature__subscriptions')) as { content: Array<{ text: string }> };
    expect(subscriptions.content[0]?.text).toContain('res://feature/0');
  });

  it("tells only the callers who see a server about its changes (tools: when the caller's own list changed)", async () => {
    // The no-project caller sees `fixture`: its tool list grows. The alpha caller does not see `fixture`.
    await call(plain.client, 'fixture__add-tool');
    await plain.next('notifications/tools/list_changed');
    // `feature` is alpha's: its update reaches the alpha listener, never the other one.
    await call(alpha.client, 'feature__touch', { uri: 'res://feature/0' });
    expect(await alpha.next('notifications/resources/updated')).toMatchObject({ uri: 'res://feature/0' });
    // The update went out before the touch was answered: a wrongly published one would have reached `plain` by now.
    expect(plain.heard.map((entry) => entry.method)).toEqual(['notifications/tools/list_changed']);
    expect(alpha.heard.map((entry) => entry.method)).toEqual(['notifications/resources/updated']);
    const listed = (await plain.client.request({ method: 'tools/list', params: {} }, Loose)) as {
      tools: Array<{ name: string }>;
    };
    expect(listed.tools.map((tool) => tool.name)).toContain('fixture__extra-tool');
  });

  it('says resources and prompts changed to the callers who see the server whose resources and prompts changed', async () => {
    // A backend that reconnects brings its resources and prompts anew: listeners re-list them.
    await app.runtime.manager.restart('feature');
    await alpha.next('notifications/resources/list_changed');
    await alpha.next('notifications/prompts/list_changed');
    // `fixture` restarts without the tool it added: the plain caller's list shrinks. Its notice is debounced after any
    // wrongly scheduled resources/prompts notice for `feature`, so by the time it arrives that one would have too.
    await app.runtime.manager.restart('fixture');
    await plain.next('notifications/tools/list_changed');
    expect(plain.heard.map((entry) => entry.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
  });

  it('caps open streams per token with a clear error, and counts them on the health route', async () => {
    const third = await modernClient(mainToken);
    const refused = await third.client.listen({ toolsListChanged: true }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32603 });
    expect(String((refused as Error).message)).toContain('this token has 2 listen streams open');
    // Another token has its own share.
    const other = await modernClient(alphaToken, 'alpha');
    const otherStream = await other.client.listen({ toolsListChanged: true });
    const health = await request(app.url, '/', { token: null });
    expect(health.body?.mcp).toMatchObject({ listenStreams: 3 });
    expect(health.body?.mcp.modernRequests).toBeGreaterThan(0);
    await otherStream.close();
    await other.client.close();
    await third.client.close();
    await eventually(async () =>
      (await request(app.url, '/', { token: null })).body?.mcp.listenStreams === 2 ? true : undefined,
    );
  });

  it('sends no log message to a 2026 request that did not ask for one (no logLevel), nor on the listen stream', async () => {
    // The control: a 2025 session that set a level hears the backend's log messages during the same tool's call.
    const session = await mcpClient(app.url, { authorization: `Bearer ${mainToken}`, 'x-project-id': 'alpha' });
    const sessionHeard: unknown[] = [];
    session.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      sessionHeard.push(notification.params.data);
    });
    await session.client.setLoggingLevel('debug');
    const logTwice = { name: 'feature__log', arguments: { level: 'error', count: 2, message: 'backend says hi' } };
    // Its messages ride the call's own response stream (not the session's GET stream, which may not be open yet).
    await session.client.callTool(logTwice);
    expect(sessionHeard).toEqual(['backend says hi', 'backend says hi']);
    await session.transport.terminateSession();
    await session.client.close();
    // The backend logs before it answers: a message sent to this request would be on its stream before the result.
    const modernHeard: unknown[] = [];
    alpha.client.setNotificationHandler('notifications/message', (notification) => {
      modernHeard.push(notification.params);
    });
    await alpha.client.request({ method: 'tools/call', params: logTwice }, Loose);
    expect(modernHeard).toEqual([]);
  });

  it('rejects a filter with too many resource URIs, and leaves no server instance behind per stream', async () => {
    const before = app.runtime.hub.sessions.all().length;
    const client = await modernClient(alphaToken, 'alpha');
    const uris = Array.from({ length: 101 }, (_, index) => `res://feature/${index}`);
    const refused = await client.client.listen({ resourceSubscriptions: uris }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32602 });
    expect(String((refused as Error).message)).toContain('at most 100 resourceSubscriptions');
    for (let round = 0; round < 3; round += 1) {
      const stream = await client.client.listen({ toolsListChanged: true, resourceSubscriptions: ['res://feature/1'] });
      await stream.close();
      await eventually(async () =>
        (await request(app.url, '/', { token: null })).body?.mcp.listenStreams === 2 ? true : undefined,
      );
    }
    await client.client.close();
    // Each listen's server instance left the hub (the SDK never connects it, so nothing else would close it).
    expect(app.runtime.hub.sessions.all().length).toBe(before);
  });

  it('counts 2025 sessions next to them; a shutdown ends the open streams gracefully without waiting for them', async () => {
    const legacy = await mcpClient(app.url);
    const health = await request(app.url, '/', { token: null });
    expect(health.body?.mcp).toMatchObject({ sessions: 1, listenStreams: 2 });
    await app.http.close();
    expect(await plainStream.closed).toBe('graceful');
    expect(await alphaStream.closed).toBe('graceful');
    await legacy.client.close().catch(() => {});
  });
});

describe('subscriptions/listen through the built search-mcp-http', () => {
  let directory: { path: string; remove: () => Promise<void> };
  let cli: CliProcess;

  beforeAll(async () => {
    directory = await temporaryDirectory();
    const configFile = join(directory.path, 'config.json');
    await writeFile(
      configFile,
      JSON.stringify({
        mcpServers: { fixture: { command: process.execPath, args: [fixtureServer] } },
        // Meta mode: the list changes only when a pinned tool comes or goes.
        exposure: { mode: 'meta', pinned: ['fixture:extra-tool'] },
        auth: { tokens: [{ id: 'main', token: mainToken }] },
      }),
    );
    cli = await startCli(['--config', configFile, '--port', '0', '--max-listen-streams', '1']);
  }, 60_000);

  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    await directory?.remove();
  });

  it('announces a pinned tool that appears, caps streams by --max-listen-streams, and ends them on SIGTERM', async () => {
    const listener = await modernClient(mainToken, undefined, cli.url);
    const stream = await listener.client.listen({ toolsListChanged: true });
    expect(stream.honoredFilter).toEqual({ toolsListChanged: true });
    const second = await modernClient(mainToken, undefined, cli.url);
    const refused = await second.client.listen({ toolsListChanged: true }).catch((error: unknown) => error);
    expect(String((refused as Error).message)).toContain('1 listen streams are open');
    await call(listener.client, 'fixture:add-tool');
    await listener.next('notifications/tools/list_changed');
    const listed = (await listener.client.request({ method: 'tools/list', params: {} }, Loose)) as {
      tools: Array<{ name: string }>;
    };
    expect(listed.tools.map((tool) => tool.name)).toContain('fixture__extra-tool');
    cli.child.kill('SIGTERM');
    expect(await stream.closed).toBe('graceful');
    await cli.exited;
  }, 60_000);
});

describe('a shutdown with 2026-07-28 calls in flight', () => {
  it('answers each with the JSON-RPC shutdown error (JSON and SSE responses) and stops its backend call', async () => {
    const directory = await temporaryDirectory();
    const events = join(directory.path, 'slow-events.log');
    const running = await startApp({
      config: {
        mcpServers: { slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_EVENTS: events } } },
      },
      app: { shutdownGraceMs: 50 },
    });
    try {
      const caller = await modernClient(mainToken, undefined, running.url);
      const wait = { name: 'slow:wait', arguments: { ms: 600_000 } };
      // Without progress the answer is one JSON body, still to come; with progress the response is an SSE stream.
      const quiet = caller.client.request({ method: 'tools/call', params: wait }, Loose);
      const streamed = caller.client.request({ method: 'tools/call', params: wait }, Loose, { onprogress: () => {} });
      await eventually(async () =>
        (await readFile(events, 'utf8').catch(() => '')).match(/started/g)?.length === 2 ? true : undefined,
      );
      const closing = running.http.close();
      for (const call of [quiet, streamed]) {
        const failure = await call.catch((error: unknown) => error);
        expect(failure).toMatchObject({ code: -32000 });
        expect(String((failure as Error).message)).toContain('shutting down');
      }
      await closing;
      await eventually(async () =>
        (await readFile(events, 'utf8')).match(/cancelled/g)?.length === 2 ? true : undefined,
      );
    } finally {
      await running.close();
      await directory.remove();
    }
  }, 60_000);
});
