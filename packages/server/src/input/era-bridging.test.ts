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
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditRecord, AuditSink } from '../audit/audit-record.js';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { PendingInputs } from './pending-inputs.js';
import { connectBarePeer, connectThroughEntry, modernEnvelope } from '../../test/stdio-entry-link.js';

// Plan §4 through the library: a real client manager with a 2025 backend (`old`: its tools push elicitation,
// sampling and roots requests during the call) and a 2026-07-28 backend (`new`: its tools answer `input_required`),
// and the 2.x SDK's own client as the front, pinned to 2026-07-28 or in legacy (2025) mode.
/** How long a parked `roots/list` waits for the retry: short, for the drop test (no other test asks for roots). */
const rootsWaitMs = 500;

let manager: McpClientManager;
let catalog: ToolCatalog;
let hub: ForwardingHub;
/** The held calls every server instance of these tests shares, as a runtime's instances share its own. */
const pendingInputs = new PendingInputs();
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      old: { command: process.execPath, args: [fixtureServerPath('feature-server.mjs'), '--name', 'old'] },
      new: { command: process.execPath, args: [fixtureServerPath('modern-server.mjs')], protocol: '2026-07-28' },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger, timeoutsMs: { 'roots/list': rootsWaitMs } });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  // Two callers by token (as the HTTP app resolves them), for the state bound to its caller.
  catalog = new ToolCatalog({
    sources: [manager],
    config,
    executor: { retries: 0 },
    tokens: [{ id: 'ann' }, { id: 'bob' }],
  });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  const started = await manager.startAll();
  expect(started.map((status) => [status.id, status.state])).toEqual([
    ['old', 'running'],
    ['new', 'running'],
  ]);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

type Front = 'modern' | 'legacy';
interface FrontOptions {
  mode?: 'meta' | 'proxy';
  capabilities?: ClientCapabilities;
  /** Answer for every field of an elicitation form; `decline` declines. */
  answer?: string | 'decline';
  manual?: boolean;
  audit?: AuditSink;
}

/** A 2.x SDK client (pinned 2026-07-28 or legacy) to a Search MCP server over the runtime's shared parts. */
async function front(era: Front, options: FrontOptions = {}) {
  const capabilities: ClientCapabilities = options.capabilities ?? {
    elicitation: { form: {} },
    sampling: {},
    roots: {},
  };
  const client = new Client(
    { name: `bridging-${era}`, version: '1' },
    {
      capabilities,
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      ...(options.manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asked: string[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      if (options.answer === 'decline') return { action: 'decline' };
      const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
      const content = Object.fromEntries(
        Object.keys(schema?.properties ?? {}).map((field) => [field, options.answer ?? 'blue']),
      );
      return { action: 'accept', content };
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async () => ({
      model: 'front-model',
      role: 'assistant',
      content: { type: 'text', text: 'from the front' },
    }));
  }
  if (capabilities.roots) client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///front' }] }));
  closers.push(
    await connectThroughEntry(client, (context) =>
      createSearchMcpServer({
        catalog,
        manager,
        hub,
        pendingInputs,
        mode: options.mode ?? 'proxy',
        era: context.era,
        ...(options.audit ? { audit: options.audit } : {}),
        // The caller's token from `_meta.token`, standing in for the HTTP app's bearer token.
        resolveCaller: ({ meta }) => (typeof meta?.token === 'string' ? { tokenId: meta.token } : {}),
      }),
    ),
  );
  return { client, asked };
}

const Loose = z.looseObject({});
const callTool = (client: Client, name: string, args: Record<string, unknown> = {}, extra = {}) =>
  client.request({ method: 'tools/call', params: { name, arguments: args, ...extra } }, Loose, {
    timeout: 30_000,
  }) as Promise<Record<string, unknown>>;
/** The same call in meta mode, through `tool_execute`. */
const execute = (client: Client, toolKey: string, args: Record<string, unknown> = {}) =>
  callTool(client, 'tool_execute', { toolKey, arguments: args });
const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text?: string }> | undefined)?.map((block) => block.text).join('') ?? '';

/** A manual (no auto-fulfilment) first round: the raw `input_required` result. */
async function firstRound(client: Client, name: string, args: Record<string, unknown> = {}, meta = {}) {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args, _meta: meta } }, Loose, {
    allowInputRequired: true,
    timeout: 30_000,
  })) as { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string };
}
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('2026-07-28 client, 2025 backend: push requests become input_required rounds', () => {
  it('elicitation accepted and declined, in proxy mode (tools/call) and meta mode (tool_execute)', async () => {
    const proxy = await front('modern', { answer: 'Ada' });
    expect(textOf(await callTool(proxy.client, 'old__ask-elicitation', { message: 'Name?' }))).toContain(
      '"action":"accept"',
    );
    expect(proxy.asked).toEqual(['Name?']);
    const accepted = await callTool(proxy.client, 'old__ask-elicitation', { message: 'Again?' });
    expect(JSON.parse(textOf(accepted))).toEqual({ action: 'accept', content: { name: 'Ada' } });

    const meta = await front('modern', { mode: 'meta', answer: 'decline' });
    const declined = await execute(meta.client, 'old:ask-elicitation', { message: 'Name?' });
    expect(JSON.parse(textOf(declined))).toEqual({ action: 'decline' });
    expect(pendingInputs.size).toBe(0);
  });

  it('sampling, in both modes', async () => {
    const proxy = await front('modern');
    expect(textOf(await callTool(proxy.client, 'old__ask-sampling', { prompt: 'hi' }))).toBe('from the front');
    const meta = await front('modern', { mode: 'meta' });
    expect(textOf(await execute(meta.client, 'old:ask-sampling', { prompt: 'hi' }))).toBe('from the front');
  });

  it('the round on the wire: our inputRequests and a signed state; the retry answers the parked request', async () => {
    const { client } = await front('modern', { manual: true });
    const round = await firstRound(client, 'old__ask-elicitation', { message: 'Name?' });
    expect(round.resultType).toBe('input_required');
    const [key, request] = Object.entries(round.inputRequests ?? {})[0] ?? [];
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } });
    expect(round.requestState).toMatch(/^smcp1\./);
    const result = await callTool(
      client,
      'old__ask-elicitation',
      { message: 'Name?' },
      {
        inputResponses: { [key as string]: { action: 'accept', content: { name: 'Grace' } } },
        requestState: round.requestState,
      },
    );
    expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { name: 'Grace' } });
  });

  it('a client without the capability: the backend gets the error a 2025 client would cause, nothing is asked', async () => {
    const { client } = await front('modern', { capabilities: { sampling: {} } });
    const failure = await errorOf(callTool(client, 'old__ask-elicitation', { message: 'Name?' }));
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).message).toContain('does not support elicitation');
    expect(pendingInputs.size).toBe(0);
  });

  it('no retry in time: the call is dropped (the backend cancelled) and its state is refused', async () => {
    let cancelled: (record: AuditRecord) => void = () => {};
    const backendCallEnded = new Promise<AuditRecord>((resolve) => {
      cancelled = resolve;
    });
    const { client } = await front('modern', { manual: true, audit: { record: (record) => cancelled(record) } });
    const dropped = once(pendingInputs, 'dropped');
    const round = await firstRound(client, 'old__ask-roots');
    expect(Object.values(round.inputRequests ?? {})).toEqual([{ method: 'roots/list' }]);
    const [callId, reason] = await dropped;
    expect(typeof callId).toBe('string');
    expect(reason).toBe(`no retry within ${rootsWaitMs} ms`);
    // The backend call was aborted (the client manager cancels it at the backend).
    expect(await backendCallEnded).toMatchObject({ toolKey: 'old:ask-roots', outcome: 'cancelled' });
    const late = await errorOf(
      callTool(
        client,
        'old__ask-roots',
        {},
        { inputResponses: { 'roots-1': { roots: [] } }, requestState: round.requestState },
      ),
    );
    expect((late as ProtocolError).code).toBe(-32602);
    expect((late as ProtocolError).message).toContain('Invalid or expired requestState');
  });
});

describe('2025 client, 2025 backend: push requests relayed as they are', () => {
  it('elicitation and sampling, in both modes', async () => {
    const proxy = await front('legacy', { answer: 'Ada' });
    const accepted = await callTool(proxy.client, 'old__ask-elicitation', { message: 'Name?' });
    expect(JSON.parse(textOf(accepted))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(textOf(await callTool(proxy.client, 'old__ask-sampling', { prompt: 'hi' }))).toBe('from the front');
    const meta = await front('legacy', { mode: 'meta', answer: 'decline' });
    expect(JSON.parse(textOf(await execute(meta.client, 'old:ask-elicitation')))).toEqual({ action: 'decline' });
    expect(textOf(await execute(meta.client, 'old:ask-sampling', { prompt: 'hi' }))).toBe('from the front');
    expect(pendingInputs.size).toBe(0);
  });
});

describe('Streamable HTTP: one server instance per 2026-07-28 request', () => {
  it('the retry, on a new instance, reaches the call the first one parked', async () => {
    const instances: string[] = [];
    const handler = createMcpHandler((context) => {
      instances.push(context.era);
      return createSearchMcpServer({ catalog, manager, hub, pendingInputs, mode: 'proxy', era: context.era });
    });
    // The real handler and client; the socket is left out (the apps' tests cover it through their binaries).
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    });
    const client = new Client(
      { name: 'bridging-http', version: '1' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Lin' } }));
    await client.connect(transport);
    closers.push(() => client.close());
    const before = instances.length;
    const result = await callTool(client, 'old__ask-elicitation', { message: 'Name?' });
    expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { name: 'Lin' } });
    // The call and its retry: two requests, two instances.
    expect(instances.length - before).toBe(2);
    expect(pendingInputs.size).toBe(0);
  });
});

describe('a 2026-07-28 call on its own signal', () => {
  it('still reports progress to the request and is cancelled with it', async () => {
    let ended: (record: AuditRecord) => void = () => {};
    const backendCallEnded = new Promise<AuditRecord>((resolve) => {
      ended = resolve;
    });
    const { client } = await front('modern', { audit: { record: (record) => ended(record) } });
    const controller = new AbortController();
    let progressed: () => void = () => {};
    const firstProgress = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const call = errorOf(
      client.request({ method: 'tools/call', params: { name: 'old__slow', arguments: { ms: 60_000 } } }, Loose, {
        signal: controller.signal,
        onprogress: () => progressed(),
        timeout: 30_000,
      }),
    );
    await firstProgress;
    controller.abort('enough');
    expect(await call).toBeDefined();
    expect(await backendCallEnded).toMatchObject({ toolKey: 'old:slow', outcome: 'cancelled' });
    expect(pendingInputs.size).toBe(0);
  });
});

describe('2026-07-28 backend: its input_required is passed through (2026 client) or asked by the shim (2025)', () => {
  it.each(['modern', 'legacy'] as const)(
    '%s client: elicitation accepted, declined; two rounds; sampling',
    async (era) => {
      const { client, asked } = await front(era, { answer: 'blue' });
      expect(textOf(await callTool(client, 'new__ask', { message: 'Colour?' }))).toBe('You said: blue');
      expect(asked).toEqual(['Colour?']);
      expect(textOf(await callTool(client, 'new__ask-twice'))).toBe('You said: blue then blue');
      expect(textOf(await callTool(client, 'new__sample', { prompt: 'hi' }))).toBe('Model said: from the front');
      const declining = await front(era, { answer: 'decline', mode: 'meta' });
      expect(textOf(await execute(declining.client, 'new:ask', { message: 'Colour?' }))).toBe('declined');
    },
  );

  it('our state wraps the backend state: bound to the caller and the call, tampering refused', async () => {
    const { client } = await front('modern', { manual: true });
    const round = await firstRound(client, 'new__ask', { message: 'Colour?' }, { token: 'ann' });
    expect(round.inputRequests).toMatchObject({ answer: { method: 'elicitation/create' } });
    const state = round.requestState as string;
    const answer = { inputResponses: { answer: { action: 'accept', content: { answer: 'red' } } } };
    const retry = (requestState: string | undefined, token = 'ann', args = { message: 'Colour?' }) =>
      callTool(client, 'new__ask', args, {
        ...answer,
        ...(requestState !== undefined ? { requestState } : {}),
        _meta: { token },
      });
    const [head, body = '', mac] = state.split('.');
    const tampered = `${head}.${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}.${mac}`;
    for (const refused of [
      retry(tampered),
      retry(state, 'bob'),
      retry(state, 'ann', { message: 'Other?' }),
      retry('ask'),
    ]) {
      const error = await errorOf(refused);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    expect(textOf(await retry(state))).toBe('You said: red');
  });

  it('a 2026 client without the capability gets -32021; a 2025 client an error result naming it', async () => {
    const modern = await front('modern', { capabilities: { sampling: {} } });
    const refused = await errorOf(callTool(modern.client, 'new__ask', { message: 'Colour?' }));
    expect((refused as ProtocolError).code).toBe(-32021);
    const legacy = await front('legacy', { capabilities: { sampling: {} } });
    const result = await callTool(legacy.client, 'new__ask', { message: 'Colour?' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not declare the required capability');
  });
});

describe('answers the client sends without a round of ours (SEP-2322: what is not recognised is ignored)', () => {
  /** A bare 2026-07-28 peer (answers as they are on the wire) of a Search MCP server in proxy mode. */
  async function barePeer() {
    const peer = await connectBarePeer(
      (context) => createSearchMcpServer({ catalog, manager, hub, pendingInputs, mode: 'proxy', era: context.era }),
      modernEnvelope({ elicitation: { form: {} } }),
    );
    closers.push(peer.close);
    return peer.send;
  }
  const accept = (answer: string) => ({ action: 'accept', content: { answer } });
  const resultOf = (answer: Record<string, unknown>) => {
    expect(answer.error).toBeUndefined();
    return answer.result as Record<string, unknown> & { requestState?: string; inputRequests?: object };
  };

  it('inputResponses without requestState run as a first call: the backend asks, the client gets the round, not -32602', async () => {
    const send = await barePeer();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['tools/call', { name: 'new__ask', arguments: { message: 'Colour?' } }],
      ['prompts/get', { name: 'new__confirm' }],
      ['resources/read', { uri: 'modern://asked' }],
    ];
    for (const [method, params] of cases) {
      // A wrong key, the right key (not bound to any round of ours, so not passed on), nothing usable.
      for (const inputResponses of [{ wrong_key: accept('x') }, { answer: accept('x') }, { answer: 12345 }]) {
        const round = resultOf(await send(method, { ...params, inputResponses }));
        expect(round, method).toMatchObject({
          resultType: 'input_required',
          inputRequests: { answer: { method: 'elicitation/create' } },
          requestState: expect.any(String),
        });
      }
    }
    // The round's own state then completes it.
    const round = resultOf(await send('tools/call', { ...cases[0]?.[1], inputResponses: { wrong_key: accept('x') } }));
    const done = resultOf(
      await send('tools/call', {
        ...cases[0]?.[1],
        inputResponses: { answer: accept('red') },
        requestState: round.requestState,
      }),
    );
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'You said: red' }] });
  });

  it("a 2025 backend's parked question is asked again when the retry does not answer it, then answered", async () => {
    const send = await barePeer();
    const call = { name: 'old__ask-elicitation', arguments: { message: 'Name?' } };
    const first = resultOf(await send('tools/call', { ...call, inputResponses: { wrong_key: accept('x') } }));
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicitation-1': {} } });
    for (const inputResponses of [{}, { wrong_key: accept('x') }, { 'elicitation-1': 12345 }]) {
      const again = resultOf(await send('tools/call', { ...call, inputResponses, requestState: first.requestState }));
      expect(again).toMatchObject({ resultType: 'input_required', inputRequests: first.inputRequests });
      first.requestState = again.requestState;
    }
    const done = resultOf(
      await send('tools/call', {
        ...call,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.requestState,
      }),
    );
    expect(done.resultType).toBe('complete');
    expect(JSON.stringify(done.content)).toContain('Ada');
  });
});
