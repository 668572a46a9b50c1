import type { ChildProcess } from 'node:child_process';
import { BackendError } from '@search-mcp/shared';
import { startRawHttpFixture } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../test/manager-harness.js';

/**
 * Remote backends (Streamable HTTP) that answer as no SDK server would, through a hand-written server: one bad
 * answer fails its own request and never the connection; a 2026-07-28 result without `resultType` is complete; a
 * probe refused with `-32022` listing 2026-07-28 means a 2026-07-28 server.
 */
const { createManager } = useManagers();
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

async function fixture(...args: string[]): Promise<string> {
  const { child, url } = await startRawHttpFixture(...args);
  children.push(child);
  return url;
}

async function failureOf(promise: Promise<unknown>): Promise<BackendError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(BackendError.isInstance(failure), String(failure)).toBe(true);
  return failure as BackendError;
}

function textOf(result: { content?: unknown }): string {
  return (result.content as Array<{ text: string }>)[0]?.text ?? '';
}

describe('a bad answer from a remote backend', () => {
  it.each([
    ['2025', [], 'result-null', 'not a JSON-RPC response (`result`: Invalid input: expected object, received null)'],
    ['2026-07-28', ['--modern'], 'bad-content', '`content`: Invalid input: expected array, received string'],
  ])('fails only its own request (%s) and keeps the connection', async (_era, args, tool, problem) => {
    const url = await fixture(...args);
    const { manager } = createManager({ raw: { url } });
    await manager.startAll();
    expect(statusOf(manager, 'raw')?.state).toBe('running');
    const failure = await failureOf(manager.callTool('raw', tool, {}));
    expect(failure.message).toBe(`MCP server 'raw' returned a malformed result for tools/call ${tool}: ${problem}`);
    const after = statusOf(manager, 'raw');
    expect(after?.state).toBe('running');
    expect(after?.restarts).toBe(0);
    expect(await manager.listTools('raw')).toHaveLength(4);
    expect(textOf(await manager.callTool('raw', 'echo', { message: 'still here' }))).toBe('Echo: still here');
    expect(await manager.readResource('raw', 'raw://greeting')).toMatchObject({ contents: [{ text: 'hello' }] });
    // One connection throughout: a restart would have asked `initialize`/`server/discover` again.
    const counts = JSON.parse(textOf(await manager.callTool('raw', 'stats', {}))) as Record<string, number>;
    expect(counts[args.length ? 'server/discover' : 'initialize']).toBe(1);
  });
});

describe('a 2026-07-28 result without resultType', () => {
  it('is taken as complete (protocol auto)', async () => {
    const url = await fixture('--modern', '--no-result-type');
    const { manager } = createManager({ raw: { url } });
    await manager.startAll();
    expect(statusOf(manager, 'raw')).toMatchObject({ state: 'running', protocolVersion: '2026-07-28' });
    expect((await manager.listTools('raw')).map((tool) => tool.toolName)).toContain('echo');
    expect(textOf(await manager.callTool('raw', 'echo', { message: 'hi' }))).toBe('Echo: hi');
    expect(await manager.readResource('raw', 'raw://greeting')).toMatchObject({
      contents: [{ uri: 'raw://greeting', text: 'hello' }],
    });
  });
});

describe('the era probe', () => {
  it('picks 2026-07-28 when the probe is refused with -32022 listing it', async () => {
    const url = await fixture('--modern', '--refuse-first-discover');
    const { manager } = createManager({ raw: { url } });
    await manager.startAll();
    expect(statusOf(manager, 'raw')).toMatchObject({ state: 'running', protocolEra: 'modern' });
    expect(textOf(await manager.callTool('raw', 'echo', { message: 'hi' }))).toBe('Echo: hi');
    const counts = JSON.parse(textOf(await manager.callTool('raw', 'stats', {}))) as Record<string, number>;
    expect(counts.initialize).toBeUndefined();
  });
});

describe('SEP-2243 custom headers (2026-07-28 over Streamable HTTP)', () => {
  it('mirrors marked arguments as Mcp-Param headers and leaves out a tool with a broken mark', async () => {
    const url = await fixture('--modern', '--header-tools');
    const { manager, records } = createManager({ raw: { url } });
    await manager.startAll();
    const names = (await manager.listTools('raw')).map((tool) => tool.toolName);
    expect(names).toContain('mirrored');
    expect(names).not.toContain('bad-mark');
    expect(records.find((record) => record.fields.tool === 'bad-mark')?.level).toBe('warn');
    const args = { region: 'eu-west', priority: 3, note: ' Grüße', query: 'not mirrored' };
    expect(JSON.parse(textOf(await manager.callTool('raw', 'mirrored', args)))).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-priority': '3',
      'mcp-param-note': `=?base64?${Buffer.from(' Grüße').toString('base64')}?=`,
    });
    // Absent (or null) arguments send no header.
    expect(JSON.parse(textOf(await manager.callTool('raw', 'mirrored', { region: 'x', note: null })))).toEqual({
      'mcp-param-region': 'x',
    });
  });

  // A task-augmented call carries the headers too: a backend that enforces SEP-2243 refuses a call without them,
  // whether the call runs plainly (no tasks extension) or through the extension (the backend may answer in the call).
  it.each([
    ['without the tasks extension', []],
    ['with the tasks extension', ['--tasks-extension']],
  ])('sends them on a task-augmented call too (%s)', async (_case, args) => {
    const url = await fixture('--modern', '--header-tools', ...args);
    const { manager } = createManager({ raw: { url } });
    await manager.startAll();
    const result = await manager.callTool('raw', 'mirrored', { region: 'eu-west', priority: 3 }, { task: {} });
    expect(JSON.parse(textOf(result as { content?: unknown }))).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-priority': '3',
    });
  });
});
