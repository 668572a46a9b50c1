import { BackendError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger, waitFor } from '../test/test-support.js';
import {
  McpClientManager,
  type McpClientManagerEvents,
  type ReverseRequest,
  type ReverseRequestRouter,
} from './index.js';

/** A router that answers as a client would, recording what it was asked; `hold` keeps answers waiting. */
function recordingRouter() {
  const requests: ReverseRequest[] = [];
  let release: (() => void) | undefined;
  let holding: Promise<void> | undefined;
  const router: ReverseRequestRouter = {
    clientCapabilities: () => ({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }),
    async route(request) {
      requests.push(request);
      if (holding) await holding;
      if (request.method === 'sampling/createMessage') {
        return { role: 'assistant', content: { type: 'text', text: 'sampled by the client' }, model: 'test' };
      }
      if (request.method === 'elicitation/create') return { action: 'accept', content: { name: 'Ada' } };
      if (request.params.fail === true) throw Object.assign(new Error('no'), { code: -32603 });
      return { roots: [{ uri: 'file:///work', name: 'work' }] };
    },
  };
  return {
    router,
    requests,
    hold() {
      holding = new Promise((resolve) => {
        release = resolve;
      });
    },
    release() {
      release?.();
      holding = undefined;
    },
  };
}

function textOf(result: { content?: unknown[] }): string {
  return String((result.content?.[0] as { text?: unknown } | undefined)?.text);
}

describe('reverse requests, notification relays and _meta (feature-server fixture)', () => {
  const routed = recordingRouter();
  let manager: McpClientManager;
  let plain: McpClientManager;
  const logs: McpClientManagerEvents['log-message'][] = [];

  beforeAll(async () => {
    manager = new McpClientManager(
      {
        mcpServers: {
          a: fixtureServer('feature-server.mjs', ['--name', 'a', '--instructions', 'Use a for tests']),
          quiet: fixtureServer('feature-server.mjs', ['--name', 'quiet', '--no-logging']),
        },
      },
      {
        logger: createRecordingLogger().logger,
        reverseRequests: routed.router,
        logRateLimit: { perSecond: 50, burst: 20 },
        shutdownGraceMs: 300,
      },
    );
    manager.on('log-message', (...event) => logs.push(event));
    plain = new McpClientManager(
      { mcpServers: { a: fixtureServer('feature-server.mjs', ['--name', 'a']) } },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    await Promise.all([manager.startAll(), plain.startAll()]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([manager?.close(), plain?.close()]);
  });

  it('reports the negotiated protocol version, the features and the instructions of each backend', () => {
    const [a, quiet] = manager.status();
    expect(a).toMatchObject({ id: 'a', state: 'running', protocolVersion: '2025-11-25' });
    expect(a?.features).toEqual(['tools', 'resources', 'prompts', 'completions', 'logging']);
    expect(quiet?.features).toEqual(['tools', 'resources', 'prompts', 'completions']);
    expect(manager.serverInstructions('a')).toBe('Use a for tests');
    expect(manager.serverInstructions('quiet')).toBeUndefined();
    expect(manager.serverCapabilities('a')).toMatchObject({ resources: { subscribe: true } });
  });

  it('routes sampling, elicitation and roots to the router with the call that caused them, and answers the backend', async () => {
    const origin = { session: 'one' };
    const sampled = await manager.callTool('a', 'ask-sampling', { prompt: 'hello' }, { origin });
    expect(textOf(sampled)).toBe('sampled by the client');
    const elicited = await manager.callTool('a', 'ask-elicitation', {}, { origin });
    expect(JSON.parse(textOf(elicited))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    const roots = await manager.callTool('a', 'ask-roots', {}, { origin });
    expect(JSON.parse(textOf(roots))).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });

    const [sampling, elicitation, rootsRequest] = routed.requests.slice(-3);
    expect(sampling).toMatchObject({ serverId: 'a', method: 'sampling/createMessage', params: { maxTokens: 10 } });
    expect(sampling?.inFlight).toEqual([
      { origin, method: 'tools/call', name: 'ask-sampling', startedAt: expect.any(Number) },
    ]);
    expect(sampling?.inFlight[0]?.origin).toBe(origin);
    expect(typeof sampling?.backendRequestId === 'number' || typeof sampling?.backendRequestId === 'string').toBe(true);
    expect(sampling?.signal).toBeInstanceOf(AbortSignal);
    expect(elicitation).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });
    expect(rootsRequest).toMatchObject({ method: 'roots/list' });
  });

  it('lists several calls in flight newest first, and none once they ended', async () => {
    routed.hold();
    const first = { session: 'first' };
    const second = { session: 'second' };
    const slow = manager.callTool('a', 'slow', { ms: 300 }, { origin: first });
    const asking = manager.callTool('a', 'ask-sampling', {}, { origin: second });
    await waitFor(() => routed.requests.some((request) => request.inFlight.length === 2), 'the sampling request');
    routed.release();
    await Promise.all([slow, asking]);
    const request = routed.requests.find((candidate) => candidate.inFlight.length === 2);
    expect(request?.inFlight.map((entry) => entry.origin)).toEqual([second, first]);
    const after = manager.callTool('a', 'ask-roots', {}, { origin: first });
    await after;
    expect(routed.requests.at(-1)?.inFlight.map((entry) => entry.origin)).toEqual([first]);
  });

  it('pauses the idle timeout while the client answers, so a slow answer does not time the call out', async () => {
    routed.hold();
    const call = manager.callTool('a', 'ask-sampling', {}, { origin: {}, timeoutMs: 300 });
    await waitFor(
      () => routed.requests.length > 0 && routed.requests.at(-1)?.inFlight[0]?.name === 'ask-sampling',
      'the request',
    );
    // Twice the idle timeout passes while the answer is held back.
    await new Promise((resolve) => setTimeout(resolve, 700));
    routed.release();
    expect(textOf(await call)).toBe('sampled by the client');
  });

  it('bounds a call whose backend waits on the client by maxTotalTimeoutMs, counted from the call', async () => {
    routed.hold();
    try {
      const call = manager.callTool('a', 'ask-sampling', {}, { origin: {}, timeoutMs: 60_000, maxTotalTimeoutMs: 500 });
      // The idle limit is paused while the client answers; the overall limit, started at that pause, ends the call.
      await expect(call).rejects.toThrow(
        "MCP server 'a' did not finish tools/call ask-sampling within 500 ms in all (maxTotalTimeoutMs), while it waited on the client",
      );
    } finally {
      routed.release();
    }
  });

  it('declares nothing without a router: the backend gets -32601', async () => {
    const failure = await plain.callTool('a', 'ask-sampling', {}).catch((error: unknown) => error);
    expect(BackendError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ backendCode: -32601, message: 'Method not found' });
  });

  it('relays log messages with their params, and honours the level a setLevel would set at the backend', async () => {
    const before = logs.length;
    await manager.callTool('a', 'log', { level: 'warning', count: 2, message: 'careful' });
    await waitFor(() => logs.length >= before + 2, 'two log messages');
    expect(logs.slice(before)).toEqual([
      ['a', { level: 'warning', logger: 'a', data: 'careful' }],
      ['a', { level: 'warning', logger: 'a', data: 'careful' }],
    ]);
  });

  it('drops a flood of log messages beyond the burst and says how many, then still answers', async () => {
    const before = logs.length;
    await manager.callTool('a', 'flood', { count: 2000 });
    await waitFor(
      () => logs.slice(before).some(([, params]) => String(params.data).startsWith('Search MCP dropped')),
      'the drop notice',
    );
    const relayed = logs.slice(before).filter(([, params]) => String(params.data).startsWith('flood'));
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.length).toBeLessThan(2000);
    const notice = logs.slice(before).find(([, params]) => String(params.data).startsWith('Search MCP dropped'));
    expect(notice?.[1]).toMatchObject({ level: 'warning', logger: 'search-mcp' });
    expect(String(notice?.[1].data)).toMatch(/^Search MCP dropped \d+ log messages from 'a' \(over 50\/s\)$/);
    expect(textOf(await manager.callTool('a', 'current-level', {}))).toBe('unset');
  });

  it('forwards request _meta to the backend unchanged, beside its own progress token', async () => {
    const meta = { traceparent: '00-abc-def-01', 'vendor/x': 1 };
    const plainCall = await manager.callTool('a', 'echo-meta', {}, { meta });
    expect(plainCall.structuredContent).toEqual({ meta });
    const withProgress = await manager.callTool('a', 'echo-meta', {}, { meta, onProgress: () => {} });
    expect(withProgress.structuredContent).toEqual({ meta: { ...meta, progressToken: expect.anything() } });
  });

  it('turns a router rejection into the backend error the tool reports', async () => {
    const failing = new McpClientManager(
      { mcpServers: { a: fixtureServer('feature-server.mjs', ['--name', 'a']) } },
      {
        logger: createRecordingLogger().logger,
        shutdownGraceMs: 300,
        reverseRequests: {
          clientCapabilities: () => ({ sampling: {} }),
          route: async () => {
            throw Object.assign(new Error('No client of Search MCP is waiting'), { code: -32603 });
          },
        },
      },
    );
    try {
      await failing.startAll();
      // The fixture re-throws what its client request got: the router's code and message reached the backend.
      await expect(failing.callTool('a', 'ask-sampling', {})).rejects.toMatchObject({
        backendCode: -32603,
        message: 'No client of Search MCP is waiting',
      });
      // roots were not declared: the backend is refused without the router being asked.
      await expect(failing.callTool('a', 'ask-roots', {})).rejects.toMatchObject({ backendCode: -32601 });
    } finally {
      await failing.close();
    }
  });

  it('rejects a call to an unknown server as before', async () => {
    await expect(manager.callTool('nope', 'echo-meta', {})).rejects.toThrow("no MCP server 'nope' is configured");
  });
});
