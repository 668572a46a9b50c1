import { Client } from '@modelcontextprotocol/client';
import { type ClientCapabilities, InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { silentLogger } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { ParamsCheckingServer } from '../params-checking-server.js';
import type { ClientSession } from './client-session.js';
import { ClientSessions, type UrlElicitationRequest } from './client-sessions.js';

/**
 * `ClientSessions.elicitUrl` and `completeElicitation` (docs/oauth.md, `serve`): Search MCP's own URL-mode
 * elicitation to its one client, with a real 2.x SDK client answering over an in-memory pair, and the cases where
 * nobody is asked.
 */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((peer) => peer.close()));
});

interface Front {
  session: ClientSession;
  asked: Array<Record<string, unknown>>;
  completed: Array<Record<string, unknown>>;
  /** Resolves with the next `notifications/elicitation/complete` the client hears. */
  nextCompletion(): Promise<Record<string, unknown>>;
}

async function frontClient(
  capabilities: ClientCapabilities,
  answer: string | (() => Promise<never>) = 'accept',
  options: { era?: 'legacy' | 'modern'; canSee?: boolean } = {},
): Promise<Front> {
  const server = new Server({ name: 'search-mcp', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'front', version: '1' }, { capabilities });
  const asked: Array<Record<string, unknown>> = [];
  const completed: Array<Record<string, unknown>> = [];
  const waiters: Array<(params: Record<string, unknown>) => void> = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Record<string, unknown>);
      if (typeof answer === 'function') return answer();
      return { action: answer } as { action: 'accept' };
    });
  }
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    const params = notification.params as Record<string, unknown>;
    completed.push(params);
    waiters.shift()?.(params);
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  opened.push(client, server);
  const session: ClientSession = {
    key: `session-${opened.length}`,
    server,
    stateless: false,
    era: options.era ?? 'legacy',
    caller: () => ({}),
    capabilities: () => server.getClientCapabilities(),
    canSee: () => options.canSee ?? true,
  };
  return {
    session,
    asked,
    completed,
    nextCompletion: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

const request: UrlElicitationRequest = {
  serverId: 'linear',
  url: 'https://auth.example/authorize?state=abc',
  message: "Authorize Search MCP to use the MCP server 'linear'",
  elicitationId: 'e-1',
};
const urlCapable: ClientCapabilities = { elicitation: { url: {} } };

describe('ClientSessions.elicitUrl', () => {
  it('asks the one 2025 client that declared elicitation.url, and completes the elicitation it accepted', async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const front = await frontClient(urlCapable);
    sessions.add(front.session);
    expect(await sessions.elicitUrl(request)).toBe('accept');
    expect(front.asked).toEqual([{ mode: 'url', message: request.message, url: request.url, elicitationId: 'e-1' }]);
    const completion = front.nextCompletion();
    sessions.completeElicitation('e-1');
    expect(await completion).toEqual({ elicitationId: 'e-1' });
    // Once: a second completion of the same id sends nothing.
    sessions.completeElicitation('e-1');
    await sessions.elicitUrl({ ...request, elicitationId: 'e-2' });
    expect(front.completed).toEqual([{ elicitationId: 'e-1' }]);
  });

  it.each(['decline', 'cancel'])("passes the client's %s on, and nothing completes it", async (action) => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const front = await frontClient(urlCapable, action);
    sessions.add(front.session);
    expect(await sessions.elicitUrl(request)).toBe(action);
    sessions.completeElicitation('e-1');
    // A round trip after it: any notification sent would have arrived before this answer.
    await sessions.elicitUrl({ ...request, elicitationId: 'e-2' });
    expect(front.completed).toEqual([]);
  });

  it('asks nobody without elicitation.url, of a 2026-07-28 client, of a caller that cannot see the server', async () => {
    const cases = [
      await frontClient({ elicitation: { form: {} } }),
      await frontClient({}),
      await frontClient(urlCapable, 'accept', { era: 'modern' }),
      await frontClient(urlCapable, 'accept', { canSee: false }),
    ];
    for (const front of cases) {
      const sessions = new ClientSessions({ logger: silentLogger });
      sessions.add(front.session);
      expect(await sessions.elicitUrl(request)).toBeUndefined();
      expect(front.asked).toEqual([]);
    }
  });

  it('asks nobody when there is no session or several (whose login would it be?)', async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    expect(await sessions.elicitUrl(request)).toBeUndefined();
    const first = await frontClient(urlCapable);
    const second = await frontClient(urlCapable);
    sessions.add(first.session);
    sessions.add(second.session);
    expect(await sessions.elicitUrl(request)).toBeUndefined();
    expect([...first.asked, ...second.asked]).toEqual([]);
  });

  it("waits for the client's handshake to end before asking", async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const front = await frontClient(urlCapable);
    let handshakeOver: () => void = () => {};
    const connected = new Promise<void>((resolve) => {
      handshakeOver = resolve;
    });
    sessions.add({ ...front.session, connected: () => connected });
    const answer = sessions.elicitUrl(request);
    // A round trip of the client's own: a request sent already would have arrived before its answer.
    await front.session.server.ping();
    expect(front.asked).toEqual([]);
    handshakeOver();
    expect(await answer).toBe('accept');
    expect(front.asked).toHaveLength(1);
  });

  it("a server's clientConnected resolves with the client's notifications/initialized", async () => {
    const server = new ParamsCheckingServer({ name: 'search-mcp', version: '1' }, { capabilities: {} });
    let heard = false;
    server.onClientConnected(() => {
      heard = true;
    });
    const client = new Client({ name: 'front', version: '1' }, { capabilities: urlCapable });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    opened.push(client, server);
    await server.clientConnected;
    expect(heard).toBe(true);
  });

  it('resolves undefined when the client fails to answer', async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const front = await frontClient(urlCapable, () => Promise.reject(new Error('the dialog crashed')));
    sessions.add(front.session);
    expect(await sessions.elicitUrl(request)).toBeUndefined();
    expect(front.asked).toHaveLength(1);
  });
});
