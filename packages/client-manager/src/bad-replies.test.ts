import { BackendError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe, expect } from 'vitest';
import { stateOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';

/**
 * Every request gets one clear answer at once, whatever the backend sends back: malformed replies, results of the
 * wrong shape and replies over the size limit fail their own call (not after the 20 s timeout) and nothing else.
 */
// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

const timeoutMs = 20_000;

async function failureOf(promise: Promise<unknown>): Promise<BackendError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(BackendError.isInstance(failure)).toBe(true);
  return failure as BackendError;
}

describe.concurrent('malformed replies', () => {
  it('fails each call at once with what was wrong, and keeps the server', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({
      raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }),
    });
    await manager.startAll();
    const cases: Array<[tool: string, message: string]> = [
      ['error-without-message', 'malformed response from the MCP server: error -32000 without a message'],
      ['result-null', 'malformed response from the MCP server: `result` is null (expected an object)'],
      ['result-string', 'malformed response from the MCP server: `result` is a string (expected an object)'],
      ['result-array', 'malformed response from the MCP server: `result` is an array (expected an object)'],
      ['neither', 'malformed response from the MCP server: it has neither `result` nor `error`'],
    ];
    const started = performance.now();
    for (const [tool, message] of cases) {
      const failure = await failureOf(manager.callTool('raw', tool));
      expect(failure.message, tool).toBe(message);
    }
    // Five answers, each at once: far below one timeout.
    expect(performance.now() - started).toBeLessThan(timeoutMs / 4);
    expect((await failureOf(manager.callTool('raw', 'error-without-message'))).backendCode).toBe(-32000);
    const warnings = records.filter((record) => record.message === 'answered a request with an error: bad response');
    expect(warnings.map((record) => record.fields.problem)).toContain('`result` is null (expected an object)');
    expect(stateOf(manager, 'raw')).toBe('running');
    expect((await manager.callTool('raw', 'echo', { message: 'fine' })).content).toEqual([
      { type: 'text', text: 'Echo: fine' },
    ]);
  });

  it('accepts a good reply with an unknown top-level field (the SDK would drop it)', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }) });
    await manager.startAll();
    expect(await manager.callTool('raw', 'extra-field')).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('rejects a tools/call result of the wrong shape with a clear error', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }) });
    await manager.startAll();
    const prefix = "MCP server 'raw' returned a malformed result for tools/call";
    expect((await failureOf(manager.callTool('raw', 'content-string'))).message).toBe(
      `${prefix} content-string: \`content\` is a string (expected an array of content blocks)`,
    );
    expect((await failureOf(manager.callTool('raw', 'block-without-type'))).message).toBe(
      `${prefix} block-without-type: \`content[0]\` is an object without a string \`type\` (expected a content block)`,
    );
    expect((await failureOf(manager.callTool('raw', 'structured-array'))).message).toBe(
      `${prefix} structured-array: \`structuredContent\` is an array (expected an object)`,
    );
  });
});

describe.concurrent('reply size', () => {
  it('carries a 5 MB result intact', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }) });
    await manager.startAll();
    const result = await manager.callTool('raw', 'big', { bytes: 5_000_000 });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text.length).toBe(5_000_000);
    expect(/^x+$/.test(text)).toBe(true);
  });

  it('fails a reply over maxMessageSize at once, whether its id comes first or last, and nothing else', async ({
    expect,
    managers,
  }) => {
    const { manager, records } = managers.createManager(
      { raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }) },
      { maxMessageSize: 100_000 },
    );
    await manager.startAll();
    for (const idFirst of [false, true]) {
      // A call waiting beside it: the over-long reply must be matched to its own call by id, not guessed.
      const bystander = manager.callTool('raw', 'sleep', { ms: 300 });
      const started = performance.now();
      const failure = await failureOf(manager.callTool('raw', 'big', { bytes: 200_000, idFirst }));
      expect(performance.now() - started).toBeLessThan(timeoutMs / 4);
      expect(failure.message).toMatch(
        /^MCP server response too large: the response was \d+ characters, over the limit of 100000 \(maxMessageSize\); it was dropped$/,
      );
      expect((await bystander).content).toEqual([{ type: 'text', text: 'slept 300' }]);
    }
    expect(records.some((record) => record.message.includes('not JSON-RPC'))).toBe(false);
    expect(stateOf(manager, 'raw')).toBe('running');
    expect((await manager.callTool('raw', 'big', { bytes: 1000 })).content).toEqual([
      { type: 'text', text: 'x'.repeat(1000) },
    ]);
  });
});

describe.concurrent('floods', () => {
  it('delivers every progress notification of a flood in order and still answers', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ raw: fixtureServer('raw-reply-server.mjs', [], { timeoutMs }) });
    await manager.startAll();
    const progress: number[] = [];
    const result = await manager.callTool(
      'raw',
      'flood',
      { logs: 2000, progress: 1000 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'flooded' }]);
    expect(progress).toEqual(Array.from({ length: 1000 }, (_, index) => index + 1));
  });
});
