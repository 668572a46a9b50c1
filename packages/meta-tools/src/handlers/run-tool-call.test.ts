import { describe, expect, it } from 'vitest';
import { call, connect, Loose } from '../../test/search-mcp-test-server.js';

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
