/**
 * The era matrix of the built `search-mcp-web-search` binary (issue 10): real clients of both protocol eras over
 * stdio — the 1.x SDK client, the 2.x SDK client in `legacy`, `auto` and pinned-2026-07-28 modes, and a bare JSON-RPC
 * peer for older 2025 revisions and a stateless first request — each lists the tool and runs a search (through the
 * real `openai` SDK against our OpenAI-compatible fake server). Both sides report the negotiated version: the client
 * through its API, the server in its `client connected` log line.
 *
 * Each connection is a process of its own (stdio), and starting one is most of what a test here costs: so each
 * connection is used for everything that connection can show. The checks that need a fresh connection (the first
 * message picks the era) get one; the checks that follow on an open connection share it, in order.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  connectProtocolEraClient,
  latestLegacyProtocolVersion,
  modernProtocolVersion,
  type ProtocolEraSession,
  protocolEraClients,
  modernRequestMeta,
  type RawStdioPeer,
  startRawStdioPeer,
  type StderrCollector,
} from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const apiKey = 'sk-proj-ERA-MATRIX-0b1c2d3e4f';
const toolName = 'chatgpt_o3_search';

let fake: FakeOpenAiServer;
const sessions: ProtocolEraSession[] = [];
const peers: RawStdioPeer[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
});
afterAll(() => fake.close());
afterEach(async () => {
  fake.options = { apiKey };
  fake.requests.length = 0;
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

const serverEnvironment = () => ({
  OPENAI_API_KEY: apiKey,
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_MAX_RETRIES: '0',
  WEB_SEARCH_POLL_INTERVAL_MS: '10',
});

const target = () => ({
  transport: 'stdio' as const,
  command: process.execPath,
  args: [cli],
  env: serverEnvironment(),
});

/** A bare peer closed after the test. */
function startPeer(): RawStdioPeer {
  const peer = startSharedPeer();
  peers.push(peer);
  return peer;
}

/** A bare peer the caller closes (shared by the tests of a describe). */
function startSharedPeer(): RawStdioPeer {
  return startRawStdioPeer({ command: process.execPath, args: [cli], env: serverEnvironment() });
}

/** The server's own report: its `client connected` log lines (JSON lines on stderr; a partial last line waits). */
function connectedLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'client connected');
}

/** The server logs the connection on its first request or after `initialize`: wait for the line (bounded). */
async function serverReport(stderr: StderrCollector): Promise<Record<string, unknown>> {
  const text = await stderr.waitFor((current) => connectedLines(current).length > 0);
  return connectedLines(text)[0] as Record<string, unknown>;
}

describe.each(protocolEraClients)('$label', (description) => {
  it('negotiates its era with the server, both sides agree, lists and runs the search, refuses invalid arguments and cancels', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress', 'completed'] } };
    const session = await connectProtocolEraClient(description.kind, target(), {
      clientName: `era-${description.kind}`,
    });
    sessions.push(session);
    const expectedVersion =
      description.eraWithBothEraServer === 'modern' ? modernProtocolVersion : latestLegacyProtocolVersion;
    expect({ era: session.era, protocolVersion: session.protocolVersion }).toEqual({
      era: description.eraWithBothEraServer,
      protocolVersion: expectedVersion,
    });
    expect(session.serverInfo?.name).toBe('search-mcp-web-search');

    const listed = await session.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual([toolName]);
    if (session.era === 'modern') {
      // The tool is the same for every caller for the life of the process: cacheable and shareable.
      expect(listed).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    } else {
      expect(listed.ttlMs).toBeUndefined();
    }

    const progress: number[] = [];
    const result = await session.callTool(
      toolName,
      { query: `era ${description.kind}`, limit: 3 },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      query: `era ${description.kind}`,
      results: expect.arrayContaining([
        expect.objectContaining({ url: 'https://nodejs.org/en/blog/release/v22.12.0' }),
      ]),
    });
    expect(progress.length).toBeGreaterThanOrEqual(1);

    // The server's side of the same negotiation, in its own words.
    expect(await serverReport(session.stderr)).toMatchObject({
      era: description.eraWithBothEraServer,
      protocolVersion: expectedVersion,
      client: { name: `era-${description.kind}` },
    });
    expect(session.transportErrors).toEqual([]);

    // The same connection: invalid arguments are -32602, and cancelling a call cancels the OpenAI response.
    const invalid = await session.callTool(toolName, { query: 'x', limit: 0 }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ code: -32602 });
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const controller = new AbortController();
    const running = session.callTool(
      toolName,
      { query: 'never finishes' },
      { signal: controller.signal, onprogress: () => controller.abort(new Error('cancelled by the test')) },
    );
    await expect(running).rejects.toThrow('cancelled by the test');
    const cancel = await fake.waitFor((request) => request.route === 'cancel-response');
    expect(cancel.responseId).toBe(fake.createdIds.at(-1));
  });
});

const legacyInitialize = (protocolVersion: string, name: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name, version: '1.0.0' },
});

describe('2025-era revisions (bare JSON-RPC initialize)', () => {
  // 2025-11-25 is the handshake of the 1.x client and of the 2.x client in legacy mode above (same checks, both sides):
  // a bare peer adds the older revisions no SDK client offers.
  it.each(['2025-06-18', '2025-03-26'])(
    '%s: the server answers in the revision asked for, and the connection stays 2025 (a 2026 envelope is answered the 2025 way)',
    async (version) => {
      const peer = startPeer();
      const initialized = await peer.request('initialize', legacyInitialize(version, `raw-${version}`));
      expect(initialized.error).toBeUndefined();
      expect(initialized.result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: 'search-mcp-web-search' },
        capabilities: { tools: {} },
      });
      // Before `notifications/initialized`, on purpose: the envelope must not make the server call the client modern.
      const enveloped = await peer.request('tools/list', { _meta: modernRequestMeta(modernProtocolVersion) });
      expect(enveloped.result).toMatchObject({ tools: [{ name: toolName }] });
      expect(enveloped.result?.resultType).toBeUndefined();
      expect(enveloped.result?.ttlMs).toBeUndefined();
      peer.notify('notifications/initialized');
      const listed = await peer.request('tools/list', {});
      expect(listed.result).toMatchObject({ tools: [{ name: toolName }] });
      expect(listed.result?.ttlMs).toBeUndefined();
      const called = await peer.request('tools/call', { name: toolName, arguments: { query: 'older revision' } });
      expect(called.result).toMatchObject({ structuredContent: { query: 'older revision' } });
      expect(await serverReport(peer.stderr)).toMatchObject({
        era: 'legacy',
        protocolVersion: version,
        client: { name: `raw-${version}` },
      });
      expect(peer.noise).toEqual([]);
    },
  );

  describe('one connection opened at a revision the server does not know', () => {
    let peer: RawStdioPeer;
    beforeAll(() => {
      peer = startSharedPeer();
    });
    afterAll(() => peer.close());

    it('gets the newest 2025 revision back (the client may then leave)', async () => {
      const initialized = await peer.request('initialize', legacyInitialize('2024-01-01', 'raw-old'));
      expect(initialized.result).toMatchObject({ protocolVersion: latestLegacyProtocolVersion });
    });

    it('lines that are not JSON-RPC never stop the server: non-JSON is skipped, other JSON is a logged protocol error', async () => {
      peer.notify('notifications/initialized');
      peer.writeLine('this is not JSON');
      peer.writeLine('{"hello":"world"}');
      const listed = await peer.request('tools/list', {});
      expect(listed.result).toMatchObject({ tools: [{ name: toolName }] });
      await peer.stderr.waitFor((text) => text.includes('"msg":"protocol error"'));
      expect(peer.noise).toEqual([]);
    });
  });
});

describe('2026-07-28 without a handshake (bare JSON-RPC), on one connection in order', () => {
  let peer: RawStdioPeer;
  beforeAll(() => {
    peer = startSharedPeer();
  });
  afterAll(() => peer.close());

  it('a stateless first request is served: tools/list and tools/call with the envelope, no discover before', async () => {
    const meta = modernRequestMeta(modernProtocolVersion, { name: 'raw-modern', version: '3.0.0' });
    const listed = await peer.request('tools/list', { _meta: meta });
    expect(listed.error).toBeUndefined();
    expect(listed.result).toMatchObject({
      tools: [{ name: toolName }],
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'search-mcp-web-search' } },
    });
    const called = await peer.request('tools/call', {
      name: toolName,
      arguments: { query: 'no handshake' },
      _meta: { ...meta, progressToken: 'p1' },
    });
    expect(called.result).toMatchObject({ structuredContent: { query: 'no handshake' } });
    expect(peer.notifications.some((notification) => notification.method === 'notifications/progress')).toBe(true);
    expect(await serverReport(peer.stderr)).toMatchObject({
      era: 'modern',
      protocolVersion: modernProtocolVersion,
      client: { name: 'raw-modern', version: '3.0.0' },
    });
    expect(peer.noise).toEqual([]);
  });

  it('server/discover names the revisions, capabilities and instructions, cacheable', async () => {
    const discovered = await peer.request('server/discover', { _meta: modernRequestMeta(modernProtocolVersion) });
    expect(discovered.result).toMatchObject({
      supportedVersions: [modernProtocolVersion],
      capabilities: { tools: {} },
      instructions: expect.stringContaining(toolName),
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
  });

  it('the era is fixed for the connection: initialize is refused (-32022) and a request without the envelope (-32602)', async () => {
    const refused = await peer.request('initialize', legacyInitialize(latestLegacyProtocolVersion, 'raw-legacy'));
    expect(refused.error).toMatchObject({ code: -32022, data: { supported: [modernProtocolVersion] } });
    const bare = await peer.request('tools/call', { name: toolName, arguments: { query: 'x' } });
    expect(bare.error).toMatchObject({ code: -32602, message: expect.stringContaining('_meta envelope') });
    expect(fake.requests).toHaveLength(0);
    expect(peer.noise).toEqual([]);
  });
});

describe('2026-07-28: a first request that claims a revision nobody speaks', () => {
  it('is -32022 naming the supported ones, and the server keeps serving', async () => {
    const peer = startPeer();
    const refused = await peer.request('tools/list', { _meta: modernRequestMeta('2099-01-01') });
    expect(refused.error).toMatchObject({ code: -32022 });
    expect(JSON.stringify(refused.error?.data)).toContain(modernProtocolVersion);
    const listed = await peer.request('tools/list', { _meta: modernRequestMeta(modernProtocolVersion) });
    expect(listed.result).toMatchObject({ tools: [{ name: toolName }] });
  });
});
