import { McpClientManager } from '@search-mcp/client-manager';
import { isInputRequiredResult, silentLogger, ValidationError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { ToolRegistry } from '../registry/tool-registry.js';

// `execute` over a real manager: a 2026-07-28 backend's input_required comes back as the value it is, and the
// retry options reach the backend; sources that cannot take a retry say so.
describe('ToolCatalog.execute and input_required', () => {
  let manager: McpClientManager;
  let catalog: ToolCatalog;
  let localRuns = 0;

  beforeAll(async () => {
    manager = new McpClientManager(
      { mcpServers: { modern: fixtureServer('modern-server.mjs'), legacy: fixtureServer('feature-server.mjs') } },
      {
        logger: silentLogger,
        shutdownGraceMs: 300,
        reverseRequests: {
          clientCapabilities: () => ({ elicitation: { form: {} } }),
          route: async () => ({ action: 'decline' }),
        },
      },
    );
    await manager.startAll();
    const registry = new ToolRegistry({ serverId: 'inproc' });
    registry.register({ name: 'local', description: 'An in-process tool' }, () => {
      localRuns += 1;
      return 'ran';
    });
    catalog = new ToolCatalog({ sources: [manager, registry], config: manager.config, executor: { retryDelayMs: 10 } });
  }, 60_000);

  afterAll(async () => {
    await manager?.close();
  });

  it('returns input_required unchanged and passes inputResponses and requestState on', async () => {
    const first = await catalog.execute('modern:ask', { message: 'Ship it?' });
    if (!isInputRequiredResult(first)) throw new Error(`expected input_required, got ${JSON.stringify(first)}`);
    expect(first.inputRequests.answer).toMatchObject({ method: 'elicitation/create', params: { message: 'Ship it?' } });
    expect(first.requestState).toBe('ask');
    const done = await catalog.execute(
      'modern:ask',
      { message: 'Ship it?' },
      {},
      { inputResponses: { answer: { action: 'accept', content: { answer: 'ship' } } }, requestState: 'ask' },
    );
    expect(done.content).toEqual([{ type: 'text', text: 'You said: ship' }]);
    // The state is passed as given: the second round of ask-twice is reached only through it.
    const second = await catalog.execute(
      'modern:ask-twice',
      {},
      {},
      {
        inputResponses: { first: { action: 'accept', content: { answer: 'a' } } },
      },
    );
    expect(isInputRequiredResult(second) && second.requestState).toBe('ask-twice:a');
    const last = await catalog.execute(
      'modern:ask-twice',
      {},
      {},
      {
        inputResponses: { second: { action: 'accept', content: { answer: 'b' } } },
        requestState: 'ask-twice:a',
      },
    );
    expect(last.content).toEqual([{ type: 'text', text: 'You said: a then b' }]);
  });

  it('rejects retry options for a 2025 backend and for an in-process tool, without running either', async () => {
    const legacy = await catalog
      .execute('legacy:echo-meta', {}, {}, { inputResponses: { answer: {} } })
      .catch((error: unknown) => error);
    expect(ValidationError.isInstance(legacy)).toBe(true);
    expect((legacy as Error).message).toMatch(
      /^MCP server 'legacy' speaks MCP 2025-11-25, which has no multi-round-trip/,
    );
    const local = await catalog.execute('inproc:local', {}, {}, { requestState: 'x' }).catch((error) => error);
    expect(ValidationError.isInstance(local)).toBe(true);
    expect((local as Error).message).toBe(
      'inproc:local is an in-process tool: it never answers input_required, so it takes no inputResponses or requestState',
    );
    expect(localRuns).toBe(0);
    expect((await catalog.execute('inproc:local', {})).content).toEqual([{ type: 'text', text: 'ran' }]);
    expect(localRuns).toBe(1);
  });
});
