import { fileURLToPath } from 'node:url';
import { BackendError, type ToolProgress } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger, realServerEntry } from '../test/test-support.js';
import { McpClientManager, type ReverseRequest } from './index.js';

function textOf(result: { content?: unknown[] }): string {
  return String((result.content?.[0] as { text?: unknown } | undefined)?.text);
}

// server-everything's simulate-research-query declares `execution.taskSupport: "required"` and takes ~4 s.
describe('tasks (server-everything)', () => {
  let manager: McpClientManager;
  const reverse: ReverseRequest[] = [];

  beforeAll(async () => {
    manager = new McpClientManager(
      {
        mcpServers: {
          everything: { command: process.execPath, args: [realServerEntry('@modelcontextprotocol/server-everything')] },
        },
      },
      {
        logger: createRecordingLogger().logger,
        shutdownGraceMs: 300,
        reverseRequests: {
          clientCapabilities: () => ({ elicitation: { form: {} } }),
          async route(request) {
            reverse.push(request);
            return { action: 'accept', content: { interpretation: 'programming' } };
          },
        },
      },
    );
    await manager.startAll();
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
  });

  it('runs a tool that requires a task transparently: status as progress, then the result', async () => {
    const progress: ToolProgress[] = [];
    const result = await manager.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'rust' },
      { onProgress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toContain('# Research Report: rust');
    const messages = progress.map((update) => update.message);
    expect(messages).toContain('Gathering sources...');
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
  }, 30_000);

  it('creates a task on request, gets, lists and answers its result; an elicitation is linked to the task', async () => {
    const origin = { session: 'a' };
    const created = (await manager.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'python', ambiguous: true },
      { task: { ttl: 60_000 }, origin },
    )) as { task?: { taskId?: string; status?: string } };
    const taskId = String(created.task?.taskId);
    expect(created.task?.status).toBe('working');
    expect(await manager.getTask('everything', taskId)).toMatchObject({ taskId, status: expect.any(String) });
    const listed = await manager.listTasks('everything');
    expect((listed.tasks as Array<{ taskId: string }>).map((task) => task.taskId)).toContain(taskId);
    const result = await manager.getTaskResult('everything', taskId, { origin });
    expect(textOf(result as { content?: unknown[] })).toContain('# Research Report: python');
    expect(textOf(result as { content?: unknown[] })).toContain('programming');
    const elicitation = reverse.find((request) => request.method === 'elicitation/create');
    expect(elicitation?.relatedTaskId).toBe(taskId);
    expect(elicitation?.inFlight.map((entry) => [entry.origin, entry.method])).toEqual([[origin, 'tasks/result']]);
  }, 30_000);

  it('cancels a task, and a run the caller aborts ends with the abort reason', async () => {
    const created = (await manager.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'go' },
      { task: {} },
    )) as { task?: { taskId?: string } };
    const taskId = String(created.task?.taskId);
    expect(await manager.cancelTask('everything', taskId)).toMatchObject({ taskId, status: 'cancelled' });

    const controller = new AbortController();
    const reason = new Error('the client cancelled');
    const run = manager
      .callTool(
        'everything',
        'simulate-research-query',
        { topic: 'zig' },
        {
          signal: controller.signal,
          onProgress: () => controller.abort(reason),
        },
      )
      .catch((error: unknown) => error);
    expect(await run).toBe(reason);
  }, 30_000);

  it('passes the backend error on for an unknown task id', async () => {
    await expect(manager.getTask('everything', 'no-such-task')).rejects.toSatisfy(
      (error: unknown) => BackendError.isInstance(error) && error.backendCode !== undefined,
    );
  });
});

// A 2026-07-28 backend whose tool says `execution.taskSupport: "required"` (a server written for both eras lists the
// same tools) but that does not list the tasks extension: the call must be a plain one (the 2026 listing drops
// `execution`, and no `task` is sent). Backends that list the extension: `modern-tasks.test.ts`.
const modernTaskBackend = `
const { Server } = await import('@modelcontextprotocol/server');
const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
serveStdio(() => {
  const server = new Server({ name: 'tasks-2026', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'report', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }],
  }));
  server.setRequestHandler('tools/call', (request) =>
    server.projectCallToolResult({ content: [{ type: 'text', text: 'task param: ' + JSON.stringify(request.params.task ?? null) }] }),
  );
  return server;
}, { legacy: 'reject' });
`;

describe('tasks (a 2026-07-28 backend)', () => {
  let manager: McpClientManager;

  beforeAll(async () => {
    manager = new McpClientManager(
      {
        mcpServers: {
          modern: {
            command: process.execPath,
            args: ['--input-type=module', '-e', modernTaskBackend],
            // Where the 2.x server package resolves from (a devDependency of this package).
            cwd: fileURLToPath(new URL('..', import.meta.url)),
            protocol: '2026-07-28',
          },
        },
      },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    const [status] = await manager.startAll();
    expect([status?.state, status?.protocolEra]).toEqual(['running', 'modern']);
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
  });

  it('runs a tool that says it requires a task as a plain call: no task is asked of a 2026 backend', async () => {
    const result = await manager.callTool('modern', 'report', {});
    expect(textOf(result)).toBe('task param: null');
  });

  it('refuses the 2025 task methods toward a backend that offers no tasks, before sending them', async () => {
    await expect(manager.getTask('modern', 'any')).rejects.toSatisfy(
      (error: unknown) =>
        BackendError.isInstance(error) &&
        error.backendCode === -32601 &&
        error.message === "MCP server 'modern' does not offer tasks/get",
    );
  });
});
