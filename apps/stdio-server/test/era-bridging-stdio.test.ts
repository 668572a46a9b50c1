/**
 * Issue 10's era bridging of server→client requests over stdio, through the built binary
 * (`docs/design/protocol-eras.md` §4): a backend asks for input (elicitation, sampling) during a call, and the client of search-mcp answers it in its own era — a 2025
 * client as a request from the server, a 2026-07-28 client inside an `input_required` result that its 2.x SDK client
 * fulfils with the same handler and retries. Both backend eras: `legacy` (the 1.x SDK fixture, pushes requests
 * during `ask-elicitation`/`ask-sampling`) and `modern` (the 2.x fixture that speaks only 2026-07-28, answers
 * `input_required` in `ask`, `ask-twice`, `sample`). Both call paths: meta mode's `tool_execute` and the direct
 * `tools/call` (the handler proxy mode uses; `era-bridging-proxy-stdio.test.ts` runs it in proxy mode, with
 * a 2025 client that declares neither capability).
 * One search-mcp per client (stdio serves one client per process).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
import { cli, deadlineMs, eventually, featureServer } from './forwarding-support.js';

const modernServer = fixtureServerPath('modern-server.mjs');
const clientCapabilitiesKey = 'io.modelcontextprotocol/clientCapabilities';

let directory: string;
let configPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-era-bridging-'));
  configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        legacy: { command: process.execPath, args: [featureServer, '--name', 'legacy'] },
        modern: { command: process.execPath, args: [modernServer] },
      },
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** How the user and the model of the test's client answer; a test sets what it needs, `beforeEach` resets it. */
const answers = { elicitation: 'accept' as 'accept' | 'decline', modelText: 'a sampled answer' };

const handlers: ProtocolEraClientHandlers = {
  elicitation: (params) => (answers.elicitation === 'decline' ? { action: 'decline' } : fillForm(params, 'Ada')),
  sampling: () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: answers.modelText } }),
};

async function connect(kind: ProtocolEraClientKind, withHandlers: boolean): Promise<ProtocolEraSession> {
  const session = await connectProtocolEraClient(
    kind,
    {
      transport: 'stdio',
      command: process.execPath,
      args: [cli, '--config', configPath],
      env: { HOME: directory, SEARCH_MCP_WATCH: '0' },
    },
    { connectTimeoutMs: deadlineMs, ...(withHandlers ? { handlers } : {}) },
  );
  // Both backends answer before the cells run (bounded; each try is a plain request).
  await eventually(async () => {
    const legacy = await session.request('tools/call', { name: 'legacy__echo-meta', arguments: {} });
    const modern = await session.request('tools/call', { name: 'modern__echo', arguments: { message: 'up' } });
    return legacy.isError || modern.isError ? undefined : true;
  }, 'both backends answer');
  return session;
}

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** A call that failed: its JSON-RPC error's message, or the text of a tool result that reports an error. */
async function failureOf(pending: Promise<Record<string, unknown>>): Promise<string> {
  const outcome: Record<string, unknown> | Error = await pending.then(
    (result) => result,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  if (outcome instanceof Error) return outcome.message;
  expect(outcome.isError).toBe(true);
  return textOf(outcome);
}

/** `tools/call` through meta mode's `tool_execute`, or directly by the listed name `server__tool`. */
function call(session: ProtocolEraSession, path: 'tool_execute' | 'direct', toolKey: string, args = {}) {
  const [server, tool] = toolKey.split(':') as [string, string];
  return path === 'tool_execute'
    ? session.request('tools/call', { name: 'tool_execute', arguments: { toolKey, arguments: args } })
    : session.request('tools/call', { name: `${server}__${tool}`, arguments: args });
}

/** How the question reached the client: a request from the server (2025) or an `input_required` result (2026). */
function questionsOnTheWire(session: ProtocolEraSession) {
  return {
    pushed: session.received.filter((message) => typeof message.method === 'string' && 'id' in message).length,
    inputRequired: session.received.filter(
      (message) =>
        typeof message.result === 'object' &&
        message.result !== null &&
        (message.result as { resultType?: unknown }).resultType === 'input_required',
    ).length,
  };
}

beforeEach(() => {
  answers.elicitation = 'accept';
  answers.modelText = 'a sampled answer';
});

const fronts: Array<{ kind: ProtocolEraClientKind; era: 'legacy' | 'modern' }> = [
  { kind: 'sdk2-2026', era: 'modern' },
  { kind: 'sdk2-legacy', era: 'legacy' },
];

describe.each(fronts)('$kind client ($era) with elicitation and sampling handlers', ({ kind, era }) => {
  let session: ProtocolEraSession;

  beforeAll(async () => {
    session = await connect(kind, true);
  }, 90_000);

  afterAll(async () => {
    await session?.close();
  });

  /** The asks and wire messages of one call only. */
  async function observe<T>(run: () => Promise<T>) {
    const askedBefore = session.asked.length;
    const before = questionsOnTheWire(session);
    const result = await run();
    const after = questionsOnTheWire(session);
    return {
      result,
      asked: session.asked.slice(askedBefore),
      pushed: after.pushed - before.pushed,
      inputRequired: after.inputRequired - before.inputRequired,
    };
  }

  /** A 2025 client was asked by requests from search-mcp, a 2026 one by `input_required` results: never the other. */
  function expectAskedInItsEra(outcome: { pushed: number; inputRequired: number }, rounds: number) {
    if (era === 'modern') expect(outcome).toMatchObject({ pushed: 0, inputRequired: rounds });
    else expect(outcome).toMatchObject({ pushed: rounds, inputRequired: 0 });
  }

  describe('a 2025 backend pushes its request during the call', () => {
    it('elicitation through tool_execute, accepted: the backend gets the answer', async () => {
      const outcome = await observe(() =>
        call(session, 'tool_execute', 'legacy:ask-elicitation', { message: `Name for ${kind}?` }),
      );
      expect(outcome.result.isError).toBeUndefined();
      expect(JSON.parse(textOf(outcome.result))).toEqual({ action: 'accept', content: { name: 'Ada' } });
      expect(outcome.asked).toEqual([
        { method: 'elicitation/create', params: expect.objectContaining({ message: `Name for ${kind}?` }) },
      ]);
      expectAskedInItsEra(outcome, 1);
    });

    it('elicitation through a direct tools/call, declined: the backend learns it', async () => {
      answers.elicitation = 'decline';
      const outcome = await observe(() => call(session, 'direct', 'legacy:ask-elicitation', { message: 'Again?' }));
      expect(JSON.parse(textOf(outcome.result))).toEqual({ action: 'decline' });
      expect(outcome.asked.map((asked) => asked.method)).toEqual(['elicitation/create']);
      expectAskedInItsEra(outcome, 1);
    });

    it('sampling through tool_execute and directly: the model text reaches the backend', async () => {
      answers.modelText = `sampled for ${kind}`;
      const executed = await observe(() =>
        call(session, 'tool_execute', 'legacy:ask-sampling', { prompt: 'Say something' }),
      );
      expect(textOf(executed.result)).toBe(`sampled for ${kind}`);
      expect(executed.asked).toEqual([
        {
          method: 'sampling/createMessage',
          params: expect.objectContaining({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say something' } }],
          }),
        },
      ]);
      expectAskedInItsEra(executed, 1);
      const direct = await observe(() => call(session, 'direct', 'legacy:ask-sampling', { prompt: 'Once more' }));
      expect(textOf(direct.result)).toBe(`sampled for ${kind}`);
      expectAskedInItsEra(direct, 1);
    });
  });

  describe('a 2026-07-28 backend answers input_required', () => {
    it('ask through tool_execute, accepted, and directly, declined', async () => {
      const accepted = await observe(() => call(session, 'tool_execute', 'modern:ask', { message: `Hi ${kind}?` }));
      expect(textOf(accepted.result)).toBe('You said: Ada');
      expect(accepted.asked).toEqual([
        { method: 'elicitation/create', params: expect.objectContaining({ message: `Hi ${kind}?` }) },
      ]);
      expectAskedInItsEra(accepted, 1);

      answers.elicitation = 'decline';
      const declined = await observe(() => call(session, 'direct', 'modern:ask'));
      expect(textOf(declined.result)).toBe('declined');
      expectAskedInItsEra(declined, 1);
    });

    it('ask-twice takes two rounds on the same call', async () => {
      const outcome = await observe(() => call(session, 'direct', 'modern:ask-twice'));
      expect(textOf(outcome.result)).toBe('You said: Ada then Ada');
      expect(outcome.asked.map((asked) => asked.params.message)).toEqual(['First question?', 'Second question?']);
      expectAskedInItsEra(outcome, 2);
    });

    it('sample through tool_execute: the model text reaches the backend', async () => {
      answers.modelText = `modern sample for ${kind}`;
      const outcome = await observe(() => call(session, 'tool_execute', 'modern:sample', { prompt: 'Speak' }));
      expect(textOf(outcome.result)).toBe(`Model said: modern sample for ${kind}`);
      expect(outcome.asked).toEqual([
        {
          method: 'sampling/createMessage',
          params: expect.objectContaining({ messages: [{ role: 'user', content: { type: 'text', text: 'Speak' } }] }),
        },
      ]);
      expectAskedInItsEra(outcome, 1);
    });

    it('a prompt and a resource that ask before they answer', async () => {
      const prompt = await observe(() => session.request('prompts/get', { name: 'modern__confirm' }));
      expect(prompt.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Confirmed: Ada' } }]);
      expect(prompt.asked).toEqual([
        { method: 'elicitation/create', params: expect.objectContaining({ message: 'Confirm what?' }) },
      ]);
      expectAskedInItsEra(prompt, 1);
      const resource = await observe(() => session.request('resources/read', { uri: 'modern://asked' }));
      expect(resource.result.contents).toEqual([
        { uri: 'modern://asked', mimeType: 'text/plain', text: 'You said: Ada' },
      ]);
      expectAskedInItsEra(resource, 1);
    });
  });

  if (era === 'modern') {
    // 2026 capabilities travel in each request's envelope: this request says the client can do neither.
    it('a request whose envelope declares no elicitation or sampling gets a clear error, and nobody is asked', async () => {
      const bare = { _meta: { [clientCapabilitiesKey]: {} } };
      const asked = session.asked.length;
      const legacy = await failureOf(
        session.request('tools/call', { name: 'legacy__ask-elicitation', arguments: { message: 'No?' }, ...bare }),
      );
      expect(legacy).toContain('The client does not support elicitation');
      const modern = await failureOf(session.request('tools/call', { name: 'modern__sample', arguments: {}, ...bare }));
      expect(modern).toContain(
        "Cannot request input 'reply' (sampling/createMessage): the request's client capabilities do not declare",
      );
      expect(session.asked.length).toBe(asked);
    });
  }
});
