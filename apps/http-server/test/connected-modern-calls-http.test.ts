/**
 * The 2026-07-28 leg's connected instances (src/mcp/connected-modern-calls.ts) against the SDK's own handler: the
 * same raw requests to two apps with the same config, one answering `tools/call` and `tools/list` on an instance
 * connected once per caller (the default), one sending every 2026-07-28 request through `createMcpHandler`
 * (`connectedModernCalls: false`). The answers must be the same, status, content type and messages: the guard on the
 * connected way, whose shape is the SDK handler's. Then what only the connected way must get right: two clients of
 * one caller using one request id at once. Real parts: the app on 127.0.0.1 over a real runtime, a 2025 backend
 * (feature fixture: progress, log messages, elicitation) and in-process registry tools.
 */
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import { fixtureServersDirectory } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainToken, type Running, startApp } from './http-test-support.js';

const revision = '2026-07-28';
let connected: Running;
let handler: Running;

const config = {
  mcpServers: {
    feat: { command: process.execPath, args: [`${fixtureServersDirectory}/feature-server.mjs`, '--name', 'feat'] },
  },
  exposure: { mode: 'proxy' },
};

beforeAll(async () => {
  [connected, handler] = await Promise.all([
    startApp({ backends: 'none', config }),
    startApp({ backends: 'none', config, app: { connectedModernCalls: false } }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([connected?.close(), handler?.close()]);
});

function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': revision,
    [CLIENT_INFO_META_KEY]: { name: 'connected-calls-test', version: '1' },
    [CLIENT_CAPABILITIES_META_KEY]: capabilities,
    ...extra,
  };
}

function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': revision,
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}

function toolCall(id: unknown, name: string, args: Record<string, unknown>, meta = envelope()) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } };
}

interface Answer {
  status: number;
  contentType: string;
  messages: Array<Record<string, unknown>>;
}

async function post(base: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal) {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${mainToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await response.text();
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0] ?? '';
  const messages =
    contentType === 'text/event-stream'
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
      : text
        ? [JSON.parse(text) as Record<string, unknown>]
        : [];
  return { status: response.status, contentType, messages } satisfies Answer;
}

/**
 * What must be equal between the two ways: progress values are times (how many notifications came depends on
 * timing, so only whether any did), and each runtime seals `requestState` with its own key.
 */
function comparable(answer: Answer) {
  const progress = answer.messages.filter((message) => message.method === 'notifications/progress');
  const rest = answer.messages.filter((message) => message.method !== 'notifications/progress');
  return {
    status: answer.status,
    contentType: answer.contentType,
    progressed: progress.length > 0,
    messages: JSON.parse(JSON.stringify(rest).replace(/"requestState":"[^"]+"/g, '"requestState":"<sealed>"')),
  };
}

async function bothWays(body: unknown, headers: Record<string, string>) {
  const [here, there] = await Promise.all([post(connected.url, body, headers), post(handler.url, body, headers)]);
  expect(comparable(here)).toEqual(comparable(there));
  return { here, there };
}

const plain = 'feat__current-level';

describe('tools/call and tools/list on connected instances', () => {
  it('answer as the SDK handler does: lists, calls, in-band errors, progress and log messages on SSE', async () => {
    const list = await bothWays(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } },
      modernHeaders('tools/list'),
    );
    expect(list.here.status).toBe(200);
    expect(JSON.stringify(list.here.messages)).toContain(plain);

    const call = await bothWays(toolCall(2, plain, {}), modernHeaders('tools/call', plain));
    expect(call.here.messages).toMatchObject([{ id: 2, result: { content: [{ text: 'unset' }] } }]);

    const named = await bothWays(toolCall('call-three', plain, {}), modernHeaders('tools/call', plain));
    expect(named.here.messages).toMatchObject([{ id: 'call-three' }]);

    const unknown = await bothWays(
      toolCall(4, 'feat__no-such-tool', {}),
      modernHeaders('tools/call', 'feat__no-such-tool'),
    );
    expect(unknown.here.status).toBe(200);

    const progress = await bothWays(
      toolCall(5, 'feat__slow', { ms: 150 }, envelope({}, { progressToken: 'p5' })),
      modernHeaders('tools/call', 'feat__slow'),
    );
    expect(comparable(progress.here)).toMatchObject({ contentType: 'text/event-stream', progressed: true });

    const logged = await bothWays(
      toolCall(6, 'feat__log', { level: 'warning', message: 'heard' }, envelope({}, { [LOG_LEVEL_META_KEY]: 'info' })),
      modernHeaders('tools/call', 'feat__log'),
    );
    expect(logged.here.messages.map((message) => message.method ?? 'answer')).toEqual([
      'notifications/message',
      'answer',
    ]);
  });

  it('leave to the SDK handler, and answer the same, every request whose headers it refuses or reads otherwise', async () => {
    const body = toolCall(10, plain, {});
    const cases: Array<[string, Record<string, string>]> = [
      ['Mcp-Name naming another tool', modernHeaders('tools/call', 'feat__log')],
      ['no Mcp-Name', modernHeaders('tools/call')],
      ['Mcp-Name with spaces around it', modernHeaders('tools/call', ` ${plain} `)],
      ['Mcp-Name in Base64 form', modernHeaders('tools/call', `=?base64?${Buffer.from(plain).toString('base64')}?=`)],
      ['no Mcp-Method', { 'mcp-protocol-version': revision, 'mcp-name': plain }],
      ['Mcp-Method naming another method', modernHeaders('tools/list', plain)],
      ['no MCP-Protocol-Version', { 'mcp-method': 'tools/call', 'mcp-name': plain }],
      ['a 2025 MCP-Protocol-Version', { ...modernHeaders('tools/call', plain), 'mcp-protocol-version': '2025-06-18' }],
    ];
    const statuses: Record<string, number> = {};
    for (const [name, headers] of cases) statuses[name] = (await bothWays(body, headers)).here.status;
    // The SDK's own answers, which the connected way must not change: it takes only the plain, exact headers.
    expect(statuses).toEqual({
      'Mcp-Name naming another tool': 400,
      'no Mcp-Name': 400,
      'Mcp-Name with spaces around it': 200,
      'Mcp-Name in Base64 form': 200,
      'no Mcp-Method': 400,
      'Mcp-Method naming another method': 400,
      'no MCP-Protocol-Version': 400,
      'a 2025 MCP-Protocol-Version': 400,
    });

    const noClientInfo = toolCall(11, plain, {}, { 'io.modelcontextprotocol/protocolVersion': revision } as never);
    expect((await bothWays(noClientInfo, modernHeaders('tools/call', plain))).here.status).toBe(400);
    const nullId = toolCall(null, plain, {});
    await bothWays(nullId, modernHeaders('tools/call', plain));
  });

  it('ask a 2025 backend’s elicitation as input_required, and answer the retry, as the SDK handler does', async () => {
    const ask = (app: Running, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      post(
        app.url,
        { ...toolCall(20, 'feat__ask-elicitation', {}, envelope(capabilities)), ...extra },
        modernHeaders('tools/call', 'feat__ask-elicitation'),
      );
    const without = await Promise.all([ask(connected, {}), ask(handler, {})]);
    expect(comparable(without[0])).toEqual(comparable(without[1]));

    const rounds = await Promise.all([ask(connected, { elicitation: {} }), ask(handler, { elicitation: {} })]);
    expect(comparable(rounds[0])).toEqual(comparable(rounds[1]));
    const first = rounds[0].messages[0] as { result: { resultType: string; inputRequests: Record<string, unknown> } };
    expect(first.result.resultType).toBe('input_required');
    const retries = await Promise.all(
      [connected, handler].map((app, index) => {
        const round = rounds[index]?.messages[0] as { result: { requestState: string; inputRequests: object } };
        const key = Object.keys(round.result.inputRequests)[0] ?? '';
        return post(
          app.url,
          {
            ...toolCall(21, 'feat__ask-elicitation', {}, envelope({ elicitation: {} })),
            params: {
              ...toolCall(21, 'feat__ask-elicitation', {}, envelope({ elicitation: {} })).params,
              inputResponses: { [key]: { action: 'accept', content: { answer: 'yes' } } },
              requestState: round.result.requestState,
            },
          },
          modernHeaders('tools/call', 'feat__ask-elicitation'),
        );
      }),
    );
    expect(comparable(retries[0] as Answer)).toEqual(comparable(retries[1] as Answer));
    expect(JSON.stringify(retries[0]?.messages)).toContain('accept');
  });

  it('gives each of two requests with one id at once its own answer and its own progress', async () => {
    const headers = modernHeaders('tools/call', 'feat__slow');
    const [longer, shorter] = await Promise.all([
      post(connected.url, toolCall(7, 'feat__slow', { ms: 300 }, envelope({}, { progressToken: 'a' })), headers),
      post(connected.url, toolCall(7, plain, {}), modernHeaders('tools/call', plain)),
      post(connected.url, toolCall(7, 'feat__slow', { ms: 200 }, envelope({}, { progressToken: 'b' })), headers),
    ]).then(([a, plainAnswer, b]) => {
      expect(plainAnswer.messages).toMatchObject([{ id: 7, result: { content: [{ text: 'unset' }] } }]);
      return [a, b];
    });
    const tokens = (answer: Answer) =>
      new Set(
        answer.messages
          .filter((message) => message.method === 'notifications/progress')
          .map((message) => (message.params as { progressToken: unknown }).progressToken),
      );
    expect(tokens(longer as Answer)).toEqual(new Set(['a']));
    expect(tokens(shorter as Answer)).toEqual(new Set(['b']));
    for (const answer of [longer, shorter])
      expect(answer?.messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ text: 'done' }] } });
  });
});
