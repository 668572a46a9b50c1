/**
 * Issue 9 in meta mode through the built `search-mcp` binary, with a client that declares no capabilities:
 * `tool_execute` of a tool that requires a task reports progress until its result; a backend's sampling request
 * during a call gets the client's "not supported" error; `_meta` reaches the backend without our own keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  eventually,
  type ForwardingClient,
  forwardingConfig,
  startForwardingClient,
  textOf,
} from './forwarding-support.js';

const stepTimeoutMs = 120_000;
let config: Awaited<ReturnType<typeof forwardingConfig>>;
let session: ForwardingClient;

beforeAll(async () => {
  config = await forwardingConfig();
  session = await startForwardingClient(['--config', config.path], { capabilities: {} });
  // Discovery waits for servers still connecting; this only makes sure `everything` and `a` are up.
  await eventually(async () => {
    const found = await callTool(session.client, 'tool_discovery', { query: 'research query echo meta' });
    const text = textOf(found);
    return text.includes('everything:simulate-research-query') && text.includes('a:echo-meta') ? text : undefined;
  }, 'everything and a connected');
}, stepTimeoutMs);

afterAll(async () => {
  await session?.close();
  await config?.remove();
});

describe('tool_execute', () => {
  it('runs a taskSupport "required" tool as a task, with progress until the report', {
    timeout: stepTimeoutMs,
  }, async () => {
    const progress: Array<{ message?: string }> = [];
    const result = await callTool(
      session.client,
      'tool_execute',
      { toolKey: 'everything:simulate-research-query', arguments: { topic: 'python' } },
      { onprogress: (update) => progress.push(update as { message?: string }) },
    );
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('Research Report');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.some((update) => (update.message ?? '').length > 0)).toBe(true);
  });

  it('tells the backend that this client cannot sample, and the tool reports it', async () => {
    const result = await callTool(session.client, 'tool_execute', { toolKey: 'a:ask-sampling', arguments: {} });
    expect(result.isError).toBe(true);
    // serve tells backends what its one client declared: no sampling here, so a backend that asks anyway gets the
    // SDK's -32601 for a capability its client never announced.
    expect(textOf(result)).toBe('Method not found');
  });

  it('backends are told this client declared nothing: server-everything offers no sampling or roots tools', async () => {
    const result = await callTool(session.client, 'tool_execute', {
      toolKey: 'everything:get-roots-list',
      arguments: {},
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not found/i);
    const echo = await callTool(session.client, 'tool_execute', {
      toolKey: 'everything:echo',
      arguments: { message: 'x' },
    });
    expect(echo.isError).not.toBe(true);
  });

  it('forwards _meta without token, project or the client’s progress token', async () => {
    const result = await callTool(
      session.client,
      'tool_execute',
      { toolKey: 'a:echo-meta', arguments: {} },
      { meta: { traceparent: '00-abc-def-01', 'vendor/x': 1, token: 'secret' } },
    );
    expect(JSON.parse(textOf(result))).toEqual({ traceparent: '00-abc-def-01', 'vendor/x': 1 });
  });
});
