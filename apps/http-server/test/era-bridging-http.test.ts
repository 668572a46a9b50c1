/**
 * Issue 10's era bridging of server→client requests over Streamable HTTP, through the built `search-mcp-http` (plan
 * §4): a backend asks for input during a call, and the caller answers in its own era — a 2025 session as a request
 * on its stream, a 2026-07-28 client inside an `input_required` result that it answers with a new POST (no session:
 * the call outlives the request that started it). Backends of both eras: `legacy` (1.x fixture, pushes requests
 * during `ask-elicitation`/`ask-sampling`), `modern` (2.x fixture, 2026 only, `input_required` in `ask`, `ask-twice`,
 * `sample`). Meta mode (`tool_execute`) and direct `tools/call`; callers need a token, and a round's `requestState`
 * belongs to the caller it was given to. One app process for the file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  connectProtocolEraClient,
  fillForm,
  fixtureServerPath,
  type ProtocolEraClientHandlers,
  type ProtocolEraClientKind,
  type ProtocolEraSession,
} from '@search-mcp/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { eventually, temporaryDirectory } from './http-test-support.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const modernServer = fixtureServerPath('modern-server.mjs');
const mainToken = 'bridging-main-token-0123456789abcdef';
const otherToken = 'bridging-other-token-0123456789abcdef';
const stepTimeoutMs = 90_000;
const deadlineMs = 30_000;

let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;
const sessions: ProtocolEraSession[] = [];

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        legacy: { command: process.execPath, args: [featureServer, '--name', 'legacy'] },
        modern: { command: process.execPath, args: [modernServer] },
      },
      auth: {
        tokens: [
          { id: 'main', token: mainToken },
          { id: 'other', token: otherToken },
        ],
      },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0']);
}, stepTimeoutMs);

afterAll(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  app?.child.kill('SIGTERM');
  await app?.exited;
  await directory?.remove();
});

const answers = { elicitation: 'accept' as 'accept' | 'decline', modelText: 'a sampled answer' };

beforeEach(() => {
  answers.elicitation = 'accept';
  answers.modelText = 'a sampled answer';
});

const handlers: ProtocolEraClientHandlers = {
  elicitation: (params) => (answers.elicitation === 'decline' ? { action: 'decline' } : fillForm(params, 'Ada')),
  sampling: () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: answers.modelText } }),
};

async function connect(kind: ProtocolEraClientKind, withHandlers: boolean): Promise<ProtocolEraSession> {
  const session = await connectProtocolEraClient(
    kind,
    { transport: 'http', url: new URL(`${app.url}/mcp`), headers: { authorization: `Bearer ${mainToken}` } },
    { connectTimeoutMs: deadlineMs, ...(withHandlers ? { handlers } : {}) },
  );
  sessions.push(session);
  // Both backends answer before the cells run (a backend still starting is a -32000 error: try again, bounded).
  await eventually(async () => {
    try {
      const legacy = await session.request('tools/call', { name: 'legacy__echo-meta', arguments: {} });
      const modern = await session.request('tools/call', { name: 'modern__echo', arguments: { message: 'up' } });
      return legacy.isError || modern.isError ? undefined : true;
    } catch {
      return undefined;
    }
  }, deadlineMs);
  return session;
}

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

function call(session: ProtocolEraSession, path: 'tool_execute' | 'direct', toolKey: string, args = {}) {
  const [server, tool] = toolKey.split(':') as [string, string];
  return path === 'tool_execute'
    ? session.request('tools/call', { name: 'tool_execute', arguments: { toolKey, arguments: args } })
    : session.request('tools/call', { name: `${server}__${tool}`, arguments: args });
}

async function failureOf(pending: Promise<Record<string, unknown>>): Promise<string> {
  const outcome: Record<string, unknown> | Error = await pending.then(
    (result) => result,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  if (outcome instanceof Error) return outcome.message;

  expect(outcome.isError).toBe(true);
  return textOf(outcome);
}

/** Questions the client got as requests (2025) and as `input_required` results (2026) during `run`. */
async function observe(session: ProtocolEraSession, run: () => Promise<Record<string, unknown>>) {
  const count = () => ({
    asked: session.asked.length,
    pushed: session.received.filter((message) => typeof message.method === 'string' && 'id' in message).length,
    inputRequired: session.received.filter(
      (message) => (message.result as { resultType?: unknown } | undefined)?.resultType === 'input_required',
    ).length,
  });
  const before = count();
  const result = await run();
  const after = count();
  return {
    result,
    asked: session.asked.slice(before.asked),
    pushed: after.pushed - before.pushed,
    inputRequired: after.inputRequired - before.inputRequired,
  };
}

const fronts: Array<{ kind: ProtocolEraClientKind; era: 'legacy' | 'modern' }> = [
  { kind: 'sdk2-2026', era: 'modern' },
  // `auto` probes with server/discover on this transport and settles on 2026-07-28: the same rounds as pinned.
  { kind: 'sdk2-auto', era: 'modern' },
  { kind: 'sdk1', era: 'legacy' },
];

describe.each(fronts)('$kind client ($era) over HTTP with elicitation and sampling handlers', ({ kind, era }) => {
  let session: ProtocolEraSession;

  beforeAll(async () => {
    session = await connect(kind, true);
    expect(session.era).toBe(era);
  }, stepTimeoutMs);

  function expectAskedInItsEra(outcome: { pushed: number; inputRequired: number }, rounds: number) {
    if (era === 'modern') expect(outcome).toMatchObject({ pushed: 0, inputRequired: rounds });
    else expect(outcome).toMatchObject({ pushed: rounds, inputRequired: 0 });
  }

  it('a 2025 backend: elicitation accepted (tool_execute), declined (direct), sampling', async () => {
    const accepted = await observe(session, () =>
      call(session, 'tool_execute', 'legacy:ask-elicitation', { message: `Name for ${kind}?` }),
    );
    expect(JSON.parse(textOf(accepted.result))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(accepted.asked).toEqual([
      { method: 'elicitation/create', params: expect.objectContaining({ message: `Name for ${kind}?` }) },
    ]);
    expectAskedInItsEra(accepted, 1);

    answers.elicitation = 'decline';
    const declined = await observe(session, () => call(session, 'direct', 'legacy:ask-elicitation'));
    expect(JSON.parse(textOf(declined.result))).toEqual({ action: 'decline' });
    expectAskedInItsEra(declined, 1);

    answers.modelText = `sampled over HTTP for ${kind}`;
    const sampled = await observe(session, () => call(session, 'direct', 'legacy:ask-sampling', { prompt: 'Go' }));
    expect(textOf(sampled.result)).toBe(`sampled over HTTP for ${kind}`);
    expect(sampled.asked.map((asked) => asked.method)).toEqual(['sampling/createMessage']);
    expectAskedInItsEra(sampled, 1);
  });

  it('a 2026 backend: ask accepted (tool_execute), declined (direct), two rounds, sampling', async () => {
    const accepted = await observe(session, () => call(session, 'tool_execute', 'modern:ask', { message: 'Hi?' }));
    expect(textOf(accepted.result)).toBe('You said: Ada');
    expect(accepted.asked).toEqual([
      { method: 'elicitation/create', params: expect.objectContaining({ message: 'Hi?' }) },
    ]);
    expectAskedInItsEra(accepted, 1);

    answers.elicitation = 'decline';
    const declined = await observe(session, () => call(session, 'direct', 'modern:ask'));
    expect(textOf(declined.result)).toBe('declined');
    expectAskedInItsEra(declined, 1);

    answers.elicitation = 'accept';
    const twice = await observe(session, () => call(session, 'direct', 'modern:ask-twice'));
    expect(textOf(twice.result)).toBe('You said: Ada then Ada');
    expectAskedInItsEra(twice, 2);

    answers.modelText = `modern over HTTP for ${kind}`;
    const sampled = await observe(session, () => call(session, 'tool_execute', 'modern:sample', { prompt: 'Go' }));
    expect(textOf(sampled.result)).toBe(`Model said: modern over HTTP for ${kind}`);
    expectAskedInItsEra(sampled, 1);
  });
});

describe.each([
  {
    kind: 'sdk2-2026' as const,
    era: 'modern',
    refusal: "the request's client capabilities do not declare the required capability",
  },
  {
    kind: 'sdk2-legacy' as const,
    era: 'legacy',
    refusal: 'the client on this 2025-era connection did not declare the required capability',
  },
])('$kind client ($era) over HTTP that declares neither elicitation nor sampling', ({ kind, refusal }) => {
  it('gets a clear error from either backend instead of a hang, and is never asked', async () => {
    const session = await connect(kind, false);
    const legacy = await failureOf(call(session, 'direct', 'legacy:ask-elicitation', { message: 'No?' }));
    expect(legacy).toContain('The client does not support elicitation');
    const modern = await failureOf(call(session, 'tool_execute', 'modern:sample', { prompt: 'No?' }));
    expect(modern).toBe(`Cannot request input 'reply' (sampling/createMessage): ${refusal}`);
    expect(session.asked).toEqual([]);
  });
});

/** One 2026-07-28 POST to `/mcp` as a client without an SDK sends it; the JSON-RPC answer, SSE or JSON. */
async function postModern(token: string, id: number, params: Record<string, unknown>) {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      },
    },
  };
  const response = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
    : [JSON.parse(text) as Record<string, unknown>];
  const answer = messages.find((message) => message.id === id);
  if (answer === undefined) throw new Error(`no answer to request ${id} in: ${text}`);
  return answer as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe('a 2026-07-28 round trip by hand: the requestState belongs to its caller', () => {
  it.each([
    { backend: 'modern', tool: 'modern__ask', args: { message: 'Whose?' }, said: 'You said: by hand' },
    {
      backend: 'legacy',
      tool: 'legacy__ask-elicitation',
      args: { message: 'Whose?' },
      said: JSON.stringify({ action: 'accept', content: { name: 'by hand' } }),
    },
  ])(
    '$backend backend: another token and a tampered state are refused, answers without a state are asked again; the caller finishes',
    async ({ tool, args, said }) => {
      const first = await postModern(mainToken, 1, { name: tool, arguments: args });
      expect(first.result).toMatchObject({ resultType: 'input_required' });
      const { inputRequests, requestState } = first.result as {
        inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
        requestState: string;
      };
      const [key, asked] = Object.entries(inputRequests)[0] ?? [];
      expect(asked).toMatchObject({ method: 'elicitation/create', params: { message: 'Whose?' } });
      const inputResponses = { [key as string]: fillForm(asked?.params ?? {}, 'by hand') };
      const retry = { name: tool, arguments: args, inputResponses };

      const foreign = await postModern(otherToken, 2, { ...retry, requestState });
      expect(foreign.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
      const flipped = `${requestState.slice(0, -2)}${requestState.endsWith('AA') ? 'BB' : 'AA'}`;
      const tampered = await postModern(mainToken, 3, { ...retry, requestState: flipped });
      expect(tampered.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
      // Answers without a state belong to no round: ignored, the call starts over and the backend asks again.
      const stateless = await postModern(mainToken, 4, retry);
      expect(stateless.error).toBeUndefined();
      expect(stateless.result).toMatchObject({ resultType: 'input_required' });

      const done = await postModern(mainToken, 5, { ...retry, requestState });
      expect(done.error).toBeUndefined();
      expect(textOf(done.result ?? {})).toBe(said);
    },
  );
});
