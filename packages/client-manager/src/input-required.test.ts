import type { ChildProcess } from 'node:child_process';
import {
  BackendError,
  type InputRequiredResult,
  type InputRetry,
  isInputRequiredResult,
  ValidationError,
} from '@search-mcp/shared';
import { fixtureServer, startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../test/test-support.js';
import { McpClientManager, type ReverseRequest, type ReverseRequestRouter } from './index.js';

/**
 * Multi-round-trip requests of 2026-07-28 backends (issue 10, `docs/design/protocol-eras.md` §4): the manager
 * declares the router's capabilities in every request's envelope, hands an `input_required` answer back as a value (never fulfilled
 * here) and sends the caller's retry (`inputResponses` + the echoed `requestState`). The modern fixture over stdio
 * and Streamable HTTP; the 2025 feature fixture for the error a retry to a 2025 backend gets.
 */

const declared = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

function textOf(result: Record<string, unknown>): string {
  const [block] = (result.content as { text?: unknown }[] | undefined) ?? [];
  return String(block?.text);
}

/** Narrows to `InputRequiredResult`, failing the test with the result it got otherwise. */
function inputRequired(result: unknown): InputRequiredResult {
  if (!isInputRequiredResult(result)) throw new Error(`expected input_required, got ${JSON.stringify(result)}`);
  return result;
}

const accept = (answer: string) => ({ action: 'accept', content: { answer } });

describe('input_required of 2026-07-28 backends', () => {
  const asked: ReverseRequest[] = [];
  // Records what a 2025 backend pushes: a retry meant for it must never reach it.
  const router: ReverseRequestRouter = {
    clientCapabilities: () => declared,
    async route(request) {
      asked.push(request);
      return { action: 'decline' };
    },
  };
  let manager: McpClientManager;
  let plain: McpClientManager;
  let http: { child: ChildProcess; url: string };

  beforeAll(async () => {
    http = await startHttpFixture();
    manager = new McpClientManager(
      {
        mcpServers: {
          modern: fixtureServer('modern-server.mjs'),
          'modern-http': { url: http.url },
          legacy: fixtureServer('feature-server.mjs', ['--name', 'legacy']),
          raw: fixtureServer('raw-reply-server.mjs'),
        },
      },
      { logger: createRecordingLogger().logger, reverseRequests: router, shutdownGraceMs: 300 },
    );
    // No router: the backend is told no capabilities, as before issue 10.
    plain = new McpClientManager(
      { mcpServers: { modern: fixtureServer('modern-server.mjs') } },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    await Promise.all([manager.startAll(), plain.startAll()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([manager?.close(), plain?.close()]);
    http?.child.kill();
  });

  for (const id of ['modern', 'modern-http']) {
    describe(id, () => {
      it('declares the router capabilities in each request', async () => {
        expect(manager.status().find((status) => status.id === id)?.protocolVersion).toBe('2026-07-28');
        const result = await manager.callTool(id, 'client-capabilities', {});
        expect(JSON.parse(textOf(result))).toEqual(declared);
      });

      it('returns input_required as a value, then retries with the answer and the echoed requestState', async () => {
        const first = inputRequired(await manager.callTool(id, 'ask', { message: 'Deploy?' }));
        expect(first).toMatchObject({
          resultType: 'input_required',
          inputRequests: {
            answer: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'Deploy?',
                requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
              },
            },
          },
          requestState: 'ask',
        });
        const retry: InputRetry = { inputResponses: { answer: accept('yes') } };
        if (first.requestState !== undefined) retry.requestState = first.requestState;
        const done = await manager.callTool(id, 'ask', { message: 'Deploy?' }, retry);
        expect(isInputRequiredResult(done)).toBe(false);
        expect(done.content).toEqual([{ type: 'text', text: 'You said: yes' }]);
      });

      it('passes a declined elicitation on', async () => {
        inputRequired(await manager.callTool(id, 'ask', {}));
        const done = await manager.callTool(id, 'ask', {}, { inputResponses: { answer: { action: 'decline' } } });
        expect(textOf(done)).toBe('declined');
      });

      it('takes two rounds for ask-twice, the second carrying the requestState of the first', async () => {
        const first = inputRequired(await manager.callTool(id, 'ask-twice', {}));
        expect(Object.keys(first.inputRequests)).toEqual(['first']);
        expect(first.requestState).toBeUndefined();
        const second = inputRequired(
          await manager.callTool(id, 'ask-twice', {}, { inputResponses: { first: accept('tea') } }),
        );
        expect(Object.keys(second.inputRequests)).toEqual(['second']);
        expect(second.requestState).toBe('ask-twice:tea');
        // Without the state the backend starts over: the retry is what carries it.
        const forgotten = inputRequired(
          await manager.callTool(id, 'ask-twice', {}, { inputResponses: { second: accept('cake') } }),
        );
        expect(Object.keys(forgotten.inputRequests)).toEqual(['first']);
        const done = await manager.callTool(
          id,
          'ask-twice',
          {},
          { inputResponses: { second: accept('cake') }, requestState: 'ask-twice:tea' },
        );
        expect(textOf(done)).toBe('You said: tea then cake');
      });

      it('passes a sampling request on and retries with the model reply', async () => {
        const first = inputRequired(await manager.callTool(id, 'sample', { prompt: 'Name a colour.' }));
        expect(first.inputRequests.reply).toEqual({
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour.' } }], maxTokens: 100 },
        });
        const reply = { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Teal.' } };
        const done = await manager.callTool(id, 'sample', { prompt: 'Name a colour.' }, { inputResponses: { reply } });
        expect(textOf(done)).toBe('Model said: Teal.');
      });

      it('does the same for prompts/get and resources/read', async () => {
        const prompt = inputRequired(await manager.getPrompt(id, 'confirm'));
        expect(prompt.inputRequests.answer?.method).toBe('elicitation/create');
        const confirmed = await manager.getPrompt(id, 'confirm', undefined, {
          inputResponses: { answer: accept('the plan') },
        });
        expect(confirmed.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Confirmed: the plan' } }]);
        const read = inputRequired(await manager.readResource(id, 'modern://asked'));
        expect(read.inputRequests.answer?.method).toBe('elicitation/create');
        const contents = await manager.readResource(id, 'modern://asked', {
          inputResponses: { answer: accept('hello') },
        });
        expect(contents.contents).toEqual([{ uri: 'modern://asked', mimeType: 'text/plain', text: 'You said: hello' }]);
      });

      it('rejects retry fields on a request that has no multi-round trips, and fields of the wrong type', async () => {
        const listing = await manager.listPrompts(id, undefined, { requestState: 'x' }).catch((error) => error);
        expect(ValidationError.isInstance(listing)).toBe(true);
        expect((listing as Error).message).toBe(
          `MCP server '${id}': prompts/list takes no requestState (only tools/call, prompts/get, resources/read are multi-round-trip requests)`,
        );
        const badType = await manager
          .callTool(
            id,
            'ask',
            {},
            { inputResponses: 'yes' as unknown as Record<string, unknown>, requestState: 7 as unknown as string },
          )
          .catch((error) => error);
        expect(ValidationError.isInstance(badType)).toBe(true);
        expect((badType as ValidationError).issues.map((issue) => issue.path)).toEqual([
          'inputResponses',
          'requestState',
        ]);
        expect((badType as Error).message).toBe(
          `Invalid retry of tools/call on MCP server '${id}': inputResponses: must be an object keyed like the inputRequests it answers; requestState: must be the string the backend sent, unchanged`,
        );
      });
    });
  }

  it('sends no roots list_changed to a 2026 backend (the revision has none; it asks for roots each time)', async () => {
    await expect(manager.sendRootsListChanged('modern')).resolves.toBeUndefined();
    await expect(manager.sendRootsListChanged('modern-http')).resolves.toBeUndefined();
    expect(textOf(await manager.callTool('modern', 'echo', { message: 'still here' }))).toBe('Echo: still here');
  });

  it('declares nothing without a router, and the backend SDK then refuses to ask (-32021)', async () => {
    expect(JSON.parse(textOf(await plain.callTool('modern', 'client-capabilities', {})))).toEqual({});
    const refused = await plain.callTool('modern', 'ask', {}).catch((error: unknown) => error);
    expect(BackendError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ backendCode: -32021 });
  });

  it('refuses a retry to a 2025 backend with a clear error, before anything is sent', async () => {
    const before = asked.length;
    const failure = await manager
      .callTool('legacy', 'ask-elicitation', {}, { inputResponses: { answer: accept('yes') }, requestState: 's' })
      .catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe(
      "MCP server 'legacy' speaks MCP 2025-11-25, which has no multi-round-trip requests: inputResponses and requestState are for 2026-07-28 backends only (a 2025 backend asks for input with requests while the call runs)",
    );
    const prompt = await manager
      .getPrompt('legacy', 'anything', undefined, { requestState: 's' })
      .catch((error) => error);
    expect(ValidationError.isInstance(prompt)).toBe(true);
    // The tool never ran: it would have pushed an elicitation/create to the router.
    expect(asked.length).toBe(before);
    // The same call without retry fields reaches it (and its push request reaches the router).
    await manager.callTool('legacy', 'ask-elicitation', {});
    expect(asked.slice(before).map((request) => request.method)).toEqual(['elicitation/create']);
  });

  it('takes input_required from a 2025 backend for the malformed result it is', async () => {
    const failure = await manager.callTool('raw', 'input-required', {}).catch((error: unknown) => error);
    expect(BackendError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe(
      'MCP server \'raw\' returned a malformed result for tools/call input-required: `resultType: "input_required"` needs MCP 2026-07-28 (this connection speaks 2025-11-25)',
    );
  });
});
