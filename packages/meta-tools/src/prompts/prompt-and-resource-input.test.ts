import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';

// `prompts/get` and `resources/read` of a 2026-07-28 backend that answer `input_required` (the fixture's prompt
// `confirm` and resource `modern://asked`), through Search MCP to the 2.x SDK's client pinned 2026-07-28 (the rounds
// pass through with our state) or in legacy mode (the SDK's shim asks with real requests and re-enters the handler).
const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../client-manager/test/fixtures');

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      new: { command: process.execPath, args: [resolve(fixtures, 'modern-server.mjs')], protocol: '2026-07-28' },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config, tokens: [{ id: 'ann' }, { id: 'bob' }] });
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

async function front(era: 'modern' | 'legacy', manual = false) {
  const client = new Client(
    { name: `input-${era}`, version: '1' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { answer: 'blue' } };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const entry = serveStdio(
    (context) =>
      createSearchMcpServer({
        catalog,
        manager,
        hub,
        mode: 'proxy',
        era: context.era,
        resolveCaller: ({ meta }) => (typeof meta?.token === 'string' ? { tokenId: meta.token } : {}),
      }),
    { transport: serverTransport },
  );
  await client.connect(clientTransport);
  closers.push(async () => {
    await client.close();
    await entry.close();
  });
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
        retryPrompt(undefined),
        retryResource(promptState),
        retryResource(resourceState, 'bob'),
        retryResource(undefined),
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
