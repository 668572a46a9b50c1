import { Server } from '@modelcontextprotocol/server';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { BackendError, parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientOrigin, ClientSession } from './client-session.js';
import { ClientSessions } from './client-sessions.js';
import { connectBarePeer, modernEnvelope } from '../../test/stdio-entry-link.js';
import { modernClientEra } from '../eras/modern-client-era.js';

// What a 2026-07-28 backend (the modern fixture) is told a 2026-07-28 client can do comes from that client's request
// alone. Search MCP's connection to the backend declares everything it can forward (sampling, elicitation, roots); a
// client request that declares nothing must not be credited with that.

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      new: { command: process.execPath, args: [fixtureServerPath('modern-server.mjs')], protocol: '2026-07-28' },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  expect((await manager.startAll()).map((status) => status.state)).toEqual(['running']);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A bare 2026-07-28 peer of a Search MCP server in proxy mode, sending `meta` with every request. */
async function barePeer(meta: Record<string, unknown>) {
  const peer = await connectBarePeer(
    (context) => createSearchMcpServer({ catalog, manager, hub, mode: 'proxy', era: context.era }),
    meta,
  );
  closers.push(peer.close);
  return peer.send;
}

/** The 2026-07-28 envelope without its client capabilities. */
function envelopeWithoutCapabilities(): Record<string, unknown> {
  const { 'io.modelcontextprotocol/clientCapabilities': _left, ...rest } = modernEnvelope({});
  return rest;
}

/**
 * The origin of a 2026-07-28 client's `tools/call` whose request declared no client capabilities: the SDK refuses
 * such an envelope on the wire (below), so the request extra is built here as the server builds it otherwise.
 */
function originWithoutCapabilities(): ClientOrigin {
  const session: ClientSession = {
    key: 'modern-no-capabilities',
    server: new Server({ name: 'instance', version: '1' }),
    stateless: false,
    era: 'modern',
    caller: () => ({}),
    capabilities: () => undefined,
    canSee: () => true,
  };
  const extra: RequestExtra = {
    requestId: 1,
    signal: new AbortController().signal,
    era: 'modern',
    clientEra: modernClientEra,
    sendNotification: async () => {},
    sendRequest: () => Promise.reject(new Error('a 2026-07-28 request has no server-to-client requests')),
  };
  return { session, extra };
}

const textOf = (result: Record<string, unknown>) =>
  ((result as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? '') as string;

describe('a 2026-07-28 client request that declares no client capabilities', () => {
  it('is declared to the backend as declaring none, not as the connection declares', async () => {
    const result = await manager.callTool('new', 'client-capabilities', {}, { origin: originWithoutCapabilities() });
    expect(JSON.parse(textOf(result))).toEqual({});
  });

  it('gets -32021 from a backend tool that needs sampling', async () => {
    const failure = await manager
      .callTool('new', 'sample', { prompt: 'hi' }, { origin: originWithoutCapabilities() })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(BackendError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ backendCode: -32021 });
  });

  it('cannot come over the wire: the SDK refuses an envelope without client capabilities -32602', async () => {
    const send = await barePeer(envelopeWithoutCapabilities());
    const answer = await send('tools/call', { name: 'new__client-capabilities', arguments: {} });
    expect(answer.error).toMatchObject({ code: -32602 });
  });

  it('over the wire, a client declaring {} gets -32021 and one declaring sampling is asked (the controls)', async () => {
    const bare = await barePeer(modernEnvelope({}));
    expect((await bare('tools/call', { name: 'new__sample', arguments: { prompt: 'hi' } })).error).toMatchObject({
      code: -32021,
    });
    const sampling = await barePeer(modernEnvelope({ sampling: {} }));
    const answer = await sampling('tools/call', { name: 'new__sample', arguments: { prompt: 'hi' } });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { reply: { method: 'sampling/createMessage' } },
    });
  });
});
