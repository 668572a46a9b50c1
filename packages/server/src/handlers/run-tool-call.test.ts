import { Client } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connect, Loose } from '../../test/search-mcp-test-server.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';

describe('progress, cancellation and audit', () => {
  it('forwards progress under the client token and cancels the tool when the client cancels', async () => {
    let toolSawCancel: (step: number) => void = () => {};
    const cancelledSeen = new Promise<number>((resolve) => {
      toolSawCancel = resolve;
    });
    const { client } = await connect({}, {}, { onStepsCancelled: toolSawCancel });
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const controller = new AbortController();
    const running = client.request(
      { method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'local:steps' } } },
      Loose,
      {
        onprogress: (update) => {
          progress.push(update);
          if (update.progress === 3) controller.abort(new Error('enough'));
        },
        signal: controller.signal,
      },
    );
    await expect(running).rejects.toThrow('enough');
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 50, message: `step ${step}` })));
    // The cancellation reached the tool: it stopped within a step or two of the cancel instead of running all 50.
    const stoppedAt = await cancelledSeen;
    expect(stoppedAt).toBeGreaterThan(3);
    expect(stoppedAt).toBeLessThanOrEqual(5);
  });

  it('audits discovery, execute and direct calls without argument values', async () => {
    const { client, records } = await connect({}, { mcpServers: { fs: { command: 'fs-server' } } });
    await call(client, 'tool_discovery', { query: 'echo secret-query-words' });
    await call(client, 'tool_execute', { toolKey: 'local:echo', arguments: { message: 'argument-value-secret' } });
    await call(client, 'local:echo', { message: 'argument-value-secret' }).catch(() => {});
    await call(client, 'nope:x').catch(() => {});
    await call(client, 'tool_execute', { arguments: { message: 'argument-value-secret' } });
    expect(
      records.map((record) => [record.event, record.outcome, record.toolKey ?? null, record.errorCode ?? null]),
    ).toEqual([
      ['tool_discovery', 'ok', null, null],
      ['tool_execute', 'ok', 'local:echo', null],
      ['tools/call', 'ok', 'local:echo', null],
      ['tools/call', 'error', 'nope:x', 'TOOL_NOT_FOUND'],
      ['tool_execute', 'error', null, 'VALIDATION_ERROR'],
    ]);
    expect(records[0]?.queries).toEqual(['echo secret-query-words']);
    expect(records[0]?.resultCount).toBeGreaterThan(0);
    expect(JSON.stringify(records)).not.toContain('argument-value-secret');
    expect(
      records.every(
        (record) =>
          typeof record.durationMs === 'number' && record.requestId !== '' && !Number.isNaN(Date.parse(record.ts)),
      ),
    ).toBe(true);
  });
});

describe('audit of a 2026-07-28 backend that asks for input', () => {
  // The client manager's 2026-07-28 fixture: its `ask` tool answers `input_required` until the retry brings the answer.
  const fixture = fixtureServerPath('modern-server.mjs');
  let manager: McpClientManager;
  let hub: ForwardingHub;
  let catalog: ToolCatalog;

  beforeAll(async () => {
    const config = parseConfig({
      mcpServers: { new: { command: process.execPath, args: [fixture], protocol: '2026-07-28' } },
    });
    const sessions = new ClientSessions({ logger: silentLogger });
    manager = new McpClientManager(config, { reverseRequests: sessions });
    catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
    hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
    expect((await manager.startAll()).map((status) => status.state)).toEqual(['running']);
  }, 60_000);

  afterAll(async () => {
    hub.close();
    await manager?.close();
  });

  it.each(['modern', 'legacy'] as const)(
    'records the round that answered input_required as such, the answered retry as ok (%s client)',
    async (era) => {
      const records: AuditRecord[] = [];
      const client = new Client(
        { name: `audit-${era}`, version: '1' },
        {
          capabilities: { elicitation: { form: {} } },
          versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
        },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { answer: 'red' } }));
      const close = await connectThroughEntry(client, (context) =>
        createSearchMcpServer({
          catalog,
          manager,
          hub,
          mode: 'proxy',
          era: context.era,
          audit: { record: (record) => records.push(record) },
        }),
      );
      try {
        // The 2.x client answers the round itself (2026: retry with inputResponses; 2025: the SDK's legacy shim asks
        // it with a real elicitation request and re-enters the handler): two backend rounds either way.
        const result = await client.request(
          { method: 'tools/call', params: { name: 'new__ask', arguments: { message: 'Colour?' } } },
          Loose,
          { timeout: 30_000 },
        );
        expect((result.content as Array<{ text?: string }>)[0]?.text).toBe('You said: red');
        expect(records.map((record) => [record.event, record.toolKey, record.serverId, record.outcome])).toEqual([
          ['tools/call', 'new:ask', 'new', 'input_required'],
          ['tools/call', 'new:ask', 'new', 'ok'],
        ]);
      } finally {
        await close();
      }
    },
    30_000,
  );
});
