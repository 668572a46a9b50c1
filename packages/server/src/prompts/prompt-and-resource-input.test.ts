import { once } from 'node:events';
import {
  Client,
  type ClientCapabilities,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { PendingInputs } from '../input/pending-inputs.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';

// `prompts/get` and `resources/read` that ask the client before they answer (the fixture's prompt `confirm` and
// resource `modern://asked`), through Search MCP to the 2.x SDK's client pinned 2026-07-28 or in legacy mode. The
// fixture twice: `new`, reached in 2026-07-28, answers `input_required` (the rounds pass through with our state, or the
// SDK's shim asks a 2025 client with real requests and re-enters the handler); `old`, the same process reached in 2025
// (`--both`, `protocol: "2025"`), pushes `elicitation/create` during the request (the SDK's shim on its side), which
// Search MCP parks with the prompt or read for a 2026-07-28 client and asks in an `input_required` round. `old` is
// seen by project `old` only, so a read of `modern://asked` reaches it (and `new` for everyone else).

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
/** The held calls every server instance of these tests shares, as a runtime's instances share its own. */
const pendingInputs = new PendingInputs();
/** How long a parked elicitation waits for the client's retry. */
const elicitationWaitMs = 2500;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      old: {
        command: process.execPath,
        args: [fixtureServerPath('modern-server.mjs'), '--both'],
        protocol: '2025',
        projects: ['old'],
      },
      new: { command: process.execPath, args: [fixtureServerPath('modern-server.mjs')], protocol: '2026-07-28' },
    },
    projects: { old: {} },
  });
  // A short wait for a retry of a parked elicitation, for the drop test (every other round is retried at once).
  const sessions = new ClientSessions({
    logger: silentLogger,
    timeoutsMs: { 'elicitation/create': elicitationWaitMs },
  });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config, tokens: [{ id: 'ann' }, { id: 'bob' }] });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  expect((await manager.startAll()).map((status) => status.state)).toEqual(['running', 'running']);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function front(
  era: 'modern' | 'legacy',
  manual = false,
  capabilities: ClientCapabilities = { elicitation: { form: {} } },
) {
  const client = new Client(
    { name: `input-${era}`, version: '1' },
    {
      capabilities,
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asked: string[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { answer: 'blue' } };
    });
  }
  closers.push(
    await connectThroughEntry(client, (context) =>
      createSearchMcpServer({
        catalog,
        manager,
        hub,
        pendingInputs,
        mode: 'proxy',
        era: context.era,
        resolveCaller: ({ meta }) => ({
          ...(typeof meta?.token === 'string' ? { tokenId: meta.token } : {}),
          ...(typeof meta?.project === 'string' ? { projectId: meta.project } : {}),
        }),
      }),
    ),
  );
  return { client, asked };
}

const Loose = z.looseObject({});
type Answer = Record<string, unknown> & { resultType?: string; requestState?: string; inputRequests?: object };
const request = (client: Client, method: string, params: Record<string, unknown>, allowInputRequired = false) =>
  client.request({ method, params } as never, Loose, { allowInputRequired, timeout: 30_000 }) as Promise<Answer>;
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
const answer = { inputResponses: { answer: { action: 'accept', content: { answer: 'red' } } } };

describe('a prompt and a resource of a 2026-07-28 backend that ask before they answer', () => {
  it.each(['modern', 'legacy'] as const)('%s client: asked once, then the answer', async (era) => {
    const { client, asked } = await front(era);
    expect(await request(client, 'prompts/get', { name: 'new__confirm' })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Confirmed: blue' } }],
    });
    expect(await request(client, 'resources/read', { uri: 'modern://asked' })).toMatchObject({
      contents: [{ uri: 'modern://asked', text: 'You said: blue' }],
    });
    expect(asked).toEqual(['Confirm what?', 'What should the resource say?']);
  });

  it('our state wraps the backend state: bound to the caller and the prompt or uri, tampering refused', async () => {
    const { client } = await front('modern', true);
    const prompt = await request(client, 'prompts/get', { name: 'new__confirm', _meta: { token: 'ann' } }, true);
    expect(prompt).toMatchObject({ resultType: 'input_required', inputRequests: { answer: {} } });
    const resource = await request(client, 'resources/read', { uri: 'modern://asked', _meta: { token: 'ann' } }, true);
    expect(resource).toMatchObject({ resultType: 'input_required', inputRequests: { answer: {} } });
    const promptState = prompt.requestState as string;
    const resourceState = resource.requestState as string;
    expect(promptState.startsWith('smcp1.')).toBe(true);
    const retryPrompt = (requestState: string | undefined, token = 'ann', args?: Record<string, string>) =>
      request(client, 'prompts/get', {
        name: 'new__confirm',
        ...(args ? { arguments: args } : {}),
        ...answer,
        ...(requestState !== undefined ? { requestState } : {}),
        _meta: { token },
      });
    const retryResource = (requestState: string | undefined, token = 'ann') =>
      request(client, 'resources/read', {
        uri: 'modern://asked',
        ...answer,
        ...(requestState !== undefined ? { requestState } : {}),
        _meta: { token },
      });
    const [head, body = '', mac] = promptState.split('.');
    const tampered = `${head}.${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}.${mac}`;
    const refusals = await Promise.all(
      [
        retryPrompt(tampered),
        retryPrompt(promptState, 'bob'),
        retryPrompt(promptState, 'ann', { extra: 'x' }),
        retryPrompt(resourceState),
        retryResource(promptState),
        retryResource(resourceState, 'bob'),
        retryResource('confirm'),
      ].map(errorOf),
    );
    for (const error of refusals) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    expect(await retryPrompt(promptState)).toMatchObject({ messages: [{ content: { text: 'Confirmed: red' } }] });
    expect(await retryResource(resourceState)).toMatchObject({ contents: [{ text: 'You said: red' }] });
  });
});

describe('a prompt and a resource of a 2025 backend that push a request before they answer', () => {
  const asOld = { _meta: { project: 'old' } };

  it.each(['modern', 'legacy'] as const)('%s client: asked once, then the answer', async (era) => {
    const { client, asked } = await front(era);
    expect(await request(client, 'prompts/get', { name: 'old__confirm', ...asOld })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Confirmed: blue' } }],
    });
    expect(await request(client, 'resources/read', { uri: 'modern://asked', ...asOld })).toMatchObject({
      contents: [{ uri: 'modern://asked', text: 'You said: blue' }],
    });
    expect(asked).toEqual(['Confirm what?', 'What should the resource say?']);
    expect(pendingInputs.size).toBe(0);
  });

  it('the round: our question and a state bound to the caller and the prompt or uri; the retry continues', async () => {
    const { client } = await front('modern', true);
    const meta = { _meta: { token: 'ann', project: 'old' } };
    const prompt = await request(client, 'prompts/get', { name: 'old__confirm', ...meta }, true);
    const resource = await request(client, 'resources/read', { uri: 'modern://asked', ...meta }, true);
    for (const [round, message] of [
      [prompt, 'Confirm what?'],
      [resource, 'What should the resource say?'],
    ] as const) {
      expect(round.resultType).toBe('input_required');
      expect(round.inputRequests).toEqual({
        'elicitation-1': { method: 'elicitation/create', params: expect.objectContaining({ message }) },
      });
    }
    expect(pendingInputs.size).toBe(2);
    const promptState = prompt.requestState as string;
    const resourceState = resource.requestState as string;
    const accept = (answer: string) => ({
      inputResponses: { 'elicitation-1': { action: 'accept', content: { answer } } },
    });
    const retryPrompt = (requestState: string, token = 'ann', args?: Record<string, string>) =>
      request(client, 'prompts/get', {
        name: 'old__confirm',
        ...(args ? { arguments: args } : {}),
        ...accept('red'),
        requestState,
        _meta: { token, project: 'old' },
      });
    const retryResource = (requestState: string, token = 'ann') =>
      request(client, 'resources/read', {
        uri: 'modern://asked',
        ...accept('green'),
        requestState,
        _meta: { token, project: 'old' },
      });
    const refusals = await Promise.all(
      [
        retryPrompt(promptState, 'bob'),
        retryPrompt(promptState, 'ann', { extra: 'x' }),
        retryPrompt(resourceState),
        retryResource(promptState),
        retryResource(resourceState, 'bob'),
      ].map(errorOf),
    );
    for (const error of refusals) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    // The refused retries left the parked calls waiting: the right ones continue them.
    expect(await retryPrompt(promptState)).toMatchObject({ messages: [{ content: { text: 'Confirmed: red' } }] });
    expect(await retryResource(resourceState)).toMatchObject({ contents: [{ text: 'You said: green' }] });
    expect(pendingInputs.size).toBe(0);
    // Continued once: the same state again names nothing.
    expect(((await errorOf(retryPrompt(promptState))) as ProtocolError).code).toBe(-32602);
  });

  it('no retry in time: the prompt is dropped, its backend request cancelled, its state refused', async () => {
    const { client } = await front('modern', true);
    const dropped = once(pendingInputs, 'dropped');
    const round = await request(client, 'prompts/get', { name: 'old__confirm', ...asOld }, true);
    expect(round.resultType).toBe('input_required');
    expect(manager.inFlightOrigins('old')).toHaveLength(1);
    const [, reason] = await dropped;
    expect(reason).toBe(`no retry within ${elicitationWaitMs} ms`);
    // The backend request ended on our side (cancelled at the backend): nothing of it is in flight any more.
    await vi.waitFor(() => expect(manager.inFlightOrigins('old')).toEqual([]));
    const late = await errorOf(
      request(client, 'prompts/get', {
        name: 'old__confirm',
        inputResponses: { 'elicitation-1': { action: 'accept', content: { answer: 'late' } } },
        requestState: round.requestState,
        ...asOld,
      }),
    );
    expect((late as ProtocolError).code).toBe(-32602);
    expect(pendingInputs.size).toBe(0);
  });

  it('over Streamable HTTP (one server instance per request), the retry reaches what the first round parked', async () => {
    const instances: string[] = [];
    const handler = createMcpHandler((context) => {
      instances.push(context.era);
      return createSearchMcpServer({
        catalog,
        manager,
        hub,
        pendingInputs,
        mode: 'proxy',
        era: context.era,
        resolveCaller: ({ meta }) => (typeof meta?.project === 'string' ? { projectId: meta.project } : {}),
      });
    });
    // The real handler and client; the socket is left out (the apps' tests cover it through their binaries).
    const client = new Client(
      { name: 'input-http', version: '1' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { answer: 'teal' } }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (url, init) => handler.fetch(new Request(url, init)),
      }),
    );
    closers.push(() => client.close());
    const before = instances.length;
    expect(await request(client, 'prompts/get', { name: 'old__confirm', ...asOld })).toMatchObject({
      messages: [{ content: { text: 'Confirmed: teal' } }],
    });
    // The request and its retry: two requests, two instances.
    expect(instances.slice(before)).toEqual(['modern', 'modern']);
    expect(pendingInputs.size).toBe(0);
  });

  it('a 2026 client that cannot answer: the backend hears why, nothing is parked', async () => {
    const { client } = await front('modern', false, {});
    const failure = await errorOf(request(client, 'prompts/get', { name: 'old__confirm', ...asOld }));
    expect(failure).toBeInstanceOf(ProtocolError);
    // The backend's push request got the error a 2025 client lacking the capability causes, and failed with it.
    expect((failure as ProtocolError).message).toContain('does not support elicitation');
    expect(pendingInputs.size).toBe(0);
  });
});
