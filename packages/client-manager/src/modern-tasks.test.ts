import { BackendError, type ToolProgress } from '@search-mcp/shared';
import { fixtureServer, startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { createRecordingLogger } from '../test/test-support.js';
import { McpClientManager } from './index.js';

function textOf(result: { content?: unknown }): string {
  return String((result.content as Array<{ text?: unknown }> | undefined)?.[0]?.text);
}

const tasksExtension = 'io.modelcontextprotocol/tasks';

// 2026-07-28 backends (the 2.x SDK server fixture): `tasks` (stdio) and `tasks-http` (Streamable HTTP, an instance
// per request) list the tasks extension and have a tool `job` that runs only as a task; `plain` does not list it.
// The manager's task API (2025 shapes) reaches the first two through the extension's wire (`tasks/get`,
// `tasks/cancel`; no `tasks/result`, no `tasks/list`).
describe('tasks of a 2026-07-28 backend (tasks extension)', () => {
  let manager: McpClientManager;
  let http: { child: ChildProcess; url: string } | undefined;

  const stats = async () =>
    JSON.parse(textOf(await manager.callTool('tasks', 'job-stats'))) as {
      created: number;
      cancelled: number;
      refused: number;
    };

  beforeAll(async () => {
    http = await startHttpFixture('--tasks');
    manager = new McpClientManager(
      {
        mcpServers: {
          tasks: fixtureServer('modern-server.mjs', ['--tasks'], { protocol: '2026-07-28' }),
          plain: fixtureServer('modern-server.mjs', [], { protocol: '2026-07-28' }),
          'tasks-http': { url: http.url, protocol: '2026-07-28' },
        },
      },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    const statuses = await manager.startAll();
    expect(statuses.map((status) => [status.id, status.state, status.protocolVersion])).toEqual([
      ['tasks', 'running', '2026-07-28'],
      ['plain', 'running', '2026-07-28'],
      ['tasks-http', 'running', '2026-07-28'],
    ]);
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
    http?.child.kill();
  });

  it('shows tasks among the features of the backend that lists the extension only', () => {
    const features = new Map(manager.status().map((status) => [status.id, status.features]));
    expect(features.get('tasks')).toContain('tasks');
    expect(features.get('tasks-http')).toContain('tasks');
    expect(features.get('plain')).not.toContain('tasks');
  });

  it('creates a task on request in the 2025 shape, gets it, and answers its result once it completed', async () => {
    const created = (await manager.callTool('tasks', 'job', { steps: 3 }, { task: { ttl: 60_000 } })) as {
      task?: Record<string, unknown>;
    };
    expect(created.task).toEqual({
      taskId: expect.any(String),
      status: 'working',
      statusMessage: 'step 0 of 3',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttl: 60_000,
      pollInterval: 20,
    });
    const taskId = String(created.task?.taskId);
    const got = await manager.getTask('tasks', taskId);
    expect(got).toMatchObject({ taskId, status: expect.stringMatching(/^(working|completed)$/), ttl: 60_000 });
    expect(got).not.toHaveProperty('ttlMs');
    expect(got).not.toHaveProperty('result');
    const result = await manager.getTaskResult('tasks', taskId);
    expect(textOf(result)).toBe('job done after 3 steps');
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId } });
    expect(await manager.getTask('tasks', taskId)).toMatchObject({ taskId, status: 'completed' });
  });

  it("raises a failed task's inline JSON-RPC error as the backend's error", async () => {
    const created = (await manager.callTool('tasks', 'job', { steps: 2, fail: true }, { task: {} })) as {
      task?: { taskId?: string };
    };
    await expect(manager.getTaskResult('tasks', String(created.task?.taskId))).rejects.toSatisfy(
      (error: unknown) =>
        BackendError.isInstance(error) && error.backendCode === -32603 && /job failed at step 2/.test(error.message),
    );
  });

  it('cancels a task with tasks/cancel and answers the task as it is then', async () => {
    const before = await stats();
    const created = (await manager.callTool('tasks', 'job', { steps: 10_000 }, { task: {} })) as {
      task?: { taskId?: string };
    };
    const taskId = String(created.task?.taskId);
    expect(await manager.cancelTask('tasks', taskId)).toMatchObject({
      taskId,
      status: 'cancelled',
      statusMessage: 'cancelled by the client',
    });
    expect((await stats()).cancelled).toBe(before.cancelled + 1);
  });

  it('runs a tool the backend serves only as a task inside the call: status as progress, then the result', async () => {
    const before = await stats();
    const progress: ToolProgress[] = [];
    const result = await manager.callTool(
      'tasks',
      'job',
      { steps: 3 },
      { onProgress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toBe('job done after 3 steps');
    expect(progress[0]).toEqual({ progress: 1, message: 'step 0 of 3' });
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
    // The plain call was refused once (-32021 naming the extension); the next call is a task at once.
    expect((await stats()).refused).toBe(before.refused + 1);
    const again = await manager.callTool('tasks', 'job', { steps: 1 });
    expect(textOf(again)).toBe('job done after 1 steps');
    const after = await stats();
    expect([after.refused, after.created]).toEqual([before.refused + 1, before.created + 2]);
  });

  it("fails a task run inside the call with the task's error, and cancels it when the caller aborts", async () => {
    await expect(manager.callTool('tasks', 'job', { steps: 2, fail: true })).rejects.toSatisfy(
      (error: unknown) =>
        BackendError.isInstance(error) && error.backendCode === -32603 && /job failed at step 2/.test(error.message),
    );
    const before = await stats();
    const controller = new AbortController();
    const reason = new Error('the client cancelled');
    const run = manager
      .callTool(
        'tasks',
        'job',
        { steps: 10_000 },
        { signal: controller.signal, onProgress: () => controller.abort(reason) },
      )
      .catch((error: unknown) => error);
    expect(await run).toBe(reason);
    expect((await stats()).cancelled).toBe(before.cancelled + 1);
  });

  it('surfaces a task that asks for input: getTask shows its inputRequests, updateTask answers them', async () => {
    const created = (await manager.callTool('tasks', 'job', { steps: 2, ask: true }, { task: {} })) as {
      task?: { taskId?: string };
    };
    const taskId = String(created.task?.taskId);
    let task = await manager.getTask('tasks', taskId);
    for (let polls = 0; task.status === 'working' && polls < 100; polls += 1) {
      await new Promise((done) => setTimeout(done, 20));
      task = await manager.getTask('tasks', taskId);
    }
    expect(task).toMatchObject({
      status: 'input_required',
      inputRequests: { 'confirm-1': { method: 'elicitation/create', params: { message: 'Go on with the job?' } } },
    });
    const acknowledged = await manager.updateTask('tasks', taskId, {
      'confirm-1': { action: 'accept', content: { answer: 'yes' } },
    });
    expect(acknowledged).not.toHaveProperty('resultType');
    expect(textOf(await manager.getTaskResult('tasks', taskId))).toBe('job done after 2 steps (answer: yes)');
    await expect(manager.updateTask('plain', taskId, {})).rejects.toSatisfy(
      (error: unknown) => BackendError.isInstance(error) && error.backendCode === -32601,
    );
  });

  it('answers a task run in the call that asks for input as input_required; the retry answers it and gets the result', async () => {
    const asked = (await manager.callTool('tasks', 'job', { steps: 2, ask: true })) as Record<string, unknown>;
    expect(asked).toEqual({
      resultType: 'input_required',
      inputRequests: { 'confirm-1': expect.objectContaining({ method: 'elicitation/create' }) },
      requestState: expect.stringMatching(/^search-mcp-task:/),
    });
    const progress: ToolProgress[] = [];
    const result = await manager.callTool(
      'tasks',
      'job',
      { steps: 2, ask: true },
      {
        inputResponses: { 'confirm-1': { action: 'decline' } },
        requestState: String(asked.requestState),
        onProgress: (update) => progress.push(update),
      },
    );
    expect(textOf(result)).toBe('job done after 2 steps (declined)');
    // The task is followed on after the answer: its status messages arrive as progress (how many depends on when the
    // polls fall, e.g. only 'done' under load), and none says it still waits for an answer.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((update) => update.message)).not.toContain('waiting for an answer');
  });

  it('declares the extension only on calls that may take a task, and never to a backend without it', async () => {
    const declared = async (id: string, task: boolean) =>
      JSON.parse(textOf(await manager.callTool(id, 'client-capabilities', {}, task ? { task: {} } : {}))) as {
        extensions?: Record<string, unknown>;
      };
    // The backend answers this tool in the call even when a task is offered: the result comes back as it is.
    expect((await declared('tasks', true)).extensions).toEqual({ [tasksExtension]: {} });
    expect((await declared('tasks', false)).extensions).toBeUndefined();
    expect((await declared('plain', true)).extensions).toBeUndefined();
  });

  it('gives a clear error for an unknown task id, and an empty page for tasks/list (gone in 2026)', async () => {
    await expect(manager.getTask('tasks', 'no-such-task')).rejects.toSatisfy(
      (error: unknown) =>
        BackendError.isInstance(error) && error.backendCode === -32602 && /Task not found/.test(error.message),
    );
    await expect(manager.getTaskResult('tasks', 'no-such-task')).rejects.toSatisfy(
      (error: unknown) => BackendError.isInstance(error) && error.backendCode === -32602,
    );
    expect(await manager.listTasks('tasks')).toEqual({ tasks: [] });
    await expect(manager.getTask('plain', 'any')).rejects.toSatisfy(
      (error: unknown) => BackendError.isInstance(error) && error.backendCode === -32601,
    );
  });

  it('over Streamable HTTP (Mcp-Name carries the task id): creates, follows, cancels, and runs a task-only tool in the call', async () => {
    const created = (await manager.callTool('tasks-http', 'job', { steps: 2 }, { task: {} })) as {
      task?: { taskId?: string; status?: string };
    };
    const taskId = String(created.task?.taskId);
    expect(created.task?.status).toBe('working');
    expect(await manager.getTask('tasks-http', taskId)).toMatchObject({ taskId });
    expect(textOf(await manager.getTaskResult('tasks-http', taskId))).toBe('job done after 2 steps');

    const long = (await manager.callTool('tasks-http', 'job', { steps: 10_000 }, { task: {} })) as {
      task?: { taskId?: string };
    };
    expect(await manager.cancelTask('tasks-http', String(long.task?.taskId))).toMatchObject({ status: 'cancelled' });

    expect(textOf(await manager.callTool('tasks-http', 'job', { steps: 1 }))).toBe('job done after 1 steps');
    await expect(manager.getTask('tasks-http', 'no-such-task')).rejects.toSatisfy(
      (error: unknown) => BackendError.isInstance(error) && error.backendCode === -32602,
    );
  });
});
