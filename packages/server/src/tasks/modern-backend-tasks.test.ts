import { Client } from '@modelcontextprotocol/client';
// The 1.x SDK client (a root devDependency): a 2025 client as most clients in the field are built.
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { type Logger, parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { runsAsTask } from './modern-tasks.js';
import {
  connectBarePeer,
  connectThroughEntry,
  type EntryServerFactory,
  modernEnvelope,
} from '../../test/stdio-entry-link.js';

// A 2026-07-28 backend's tasks (the tasks extension) behind Search MCP, for a front client of each era. The backend is
// the client manager's 2.x SDK fixture with `--tasks`: its tool `job` runs only as a task (a plain call is refused
// -32021), `job-stats` counts what it did. The client manager bridges the extension to its 2025-shaped task API.

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
const closers: Array<() => Promise<void>> = [];
/** The hub's warnings; `onWarning` hears each as it is logged. */
const warnings: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
let onWarning: (() => void) | undefined;
const recordingLogger: Logger = {
  ...silentLogger,
  warn(message, fields) {
    warnings.push({ message, fields });
    onWarning?.();
  },
  child: () => recordingLogger,
};

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      jobs: {
        command: process.execPath,
        args: [fixtureServerPath('modern-server.mjs'), '--tasks'],
        protocol: '2026-07-28',
      },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 }, tokens: [{ id: 'ann' }] });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: recordingLogger });
  const started = await manager.startAll();
  expect(started.map((status) => [status.state, status.protocolVersion])).toEqual([['running', '2026-07-28']]);
}, 30_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Search MCP in proxy mode over the shared parts, every request as the caller `ann`. */
const serverForAnn: EntryServerFactory = (context) =>
  createSearchMcpServer({
    catalog,
    manager,
    hub,
    mode: 'proxy',
    era: context.era,
    resolveCaller: () => ({ tokenId: 'ann' }),
  });

/**
 * A 2.x SDK client (pinned 2026-07-28 or legacy) to a Search MCP server in proxy mode, as the caller `ann`. With
 * `answer` it declares form elicitation and answers every field so (the messages it was asked are in `asked`).
 */
async function front(era: 'modern' | 'legacy', answer?: string, tasksExtension = false) {
  const client = new Client(
    { name: `backend-tasks-${era}`, version: '1' },
    {
      capabilities: {
        ...(answer === undefined ? {} : { elicitation: { form: {} } }),
        // Only a client that declares it may follow tasks with the extension's methods.
        ...(tasksExtension ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {}),
      },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { answer } };
    });
  }
  closers.push(await connectThroughEntry(client, serverForAnn));
  const send = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params }, z.looseObject({}), { timeout: 30_000 }) as Promise<Record<string, unknown>>;
  const { tools } = (await send('tools/list', {})) as { tools: Array<{ name: string }> };
  const nameOf = (tool: string) => {
    const name = tools.map((entry) => entry.name).find((candidate) => candidate.endsWith(tool));
    if (!name) throw new Error(`no ${tool} in ${tools.map((entry) => entry.name).join(', ')}`);
    return name;
  };
  return { send, asked, job: nameOf('job'), stats: nameOf('job-stats') };
}

/**
 * A bare 2026-07-28 peer that declares the tasks extension (the 2.x client cannot take `resultType: "task"`): sends
 * JSON-RPC requests with the envelope and resolves with each result as it is on the wire (an error rejects).
 */
async function barePeer() {
  const peer = await connectBarePeer(
    serverForAnn,
    modernEnvelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } }),
  );
  closers.push(peer.close);
  const send = async (method: string, params: Record<string, unknown>) => {
    const answer = await peer.send(method, params);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result as Record<string, unknown>;
  };
  const { tools } = (await send('tools/list', {})) as { tools: Array<{ name: string }> };
  const nameOf = (tool: string) => tools.map((listed) => listed.name).find((name) => name.endsWith(tool)) ?? tool;
  return { send, nameOf };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text).join('');

/** Polls `tasks/get` (at 100 ms: the fixture's jobs take a few tens of ms a step) until the task is terminal. */
async function pollUntilTerminal(
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  id: string,
) {
  const seen: Array<Record<string, unknown>> = [];
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = (await send('tasks/get', { taskId: id })) as Record<string, unknown>;
    seen.push(task);
    if (['completed', 'failed', 'cancelled'].includes(String(task.status))) return seen;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${String(task.status)} after 20 s`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('a 2026-07-28 backend task behind Search MCP', () => {
  it('2025 front: a task-augmented call creates it under our id; tasks/get and tasks/result follow it; a plain call runs it in the call', async () => {
    const legacy = await front('legacy');
    const created = await legacy.send('tools/call', {
      name: legacy.job,
      arguments: { steps: 3 },
      task: { ttl: 60_000 },
    });
    const task = created.task as Record<string, unknown>;
    expect(task).toMatchObject({ taskId: expect.any(String), status: 'working', ttl: 60_000, pollInterval: 20 });
    const taskId = String(task.taskId);
    expect(await legacy.send('tasks/get', { taskId })).toMatchObject({ taskId, status: expect.any(String) });
    const result = await legacy.send('tasks/result', { taskId });
    expect(textOf(result)).toBe('job done after 3 steps');
    // The backend's task id stays inside: the related task is ours.
    expect(result._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });

    const plain = await legacy.send('tools/call', { name: legacy.job, arguments: { steps: 2 } });
    expect(plain).not.toHaveProperty('task');
    expect(textOf(plain)).toBe('job done after 2 steps');
  }, 30_000);

  it('2026 front: follows the task in the extension shape to its inline result or error; a plain call gets the result in the call', async () => {
    const legacy = await front('legacy');
    const modern = await front('modern');
    const follower = await front('modern', undefined, true);
    const create = async (args: Record<string, unknown>) => {
      const created = await legacy.send('tools/call', { name: legacy.job, arguments: args, task: {} });
      return String((created.task as { taskId?: unknown }).taskId);
    };

    const done = await pollUntilTerminal(follower.send, await create({ steps: 3 }));
    expect(done[0]).toMatchObject({ ttlMs: 60_000, pollIntervalMs: 20 });
    expect(done.at(-1)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'job done after 3 steps' }] },
    });

    const failed = await pollUntilTerminal(follower.send, await create({ steps: 2, fail: true }));
    expect(failed.at(-1)).toMatchObject({ status: 'failed', error: { code: -32603, message: 'job failed at step 2' } });

    const cancelledId = await create({ steps: 10_000 });
    expect(Object.keys(await follower.send('tasks/cancel', { taskId: cancelledId }))).not.toContain('status');
    expect((await pollUntilTerminal(follower.send, cancelledId)).at(-1)).toMatchObject({ status: 'cancelled' });

    const plain = await modern.send('tools/call', { name: modern.job, arguments: { steps: 2 } });
    expect(textOf(plain)).toBe('job done after 2 steps');
    expect(JSON.parse(textOf(await modern.send('tools/call', { name: modern.stats, arguments: {} })))).toMatchObject({
      cancelled: 1,
    });
  }, 30_000);

  it('a task-only tool that asks for input, called plainly: each front era is asked in its own way and gets the result', async () => {
    for (const [era, answer] of [
      ['modern', 'green'],
      ['legacy', 'red'],
    ] as const) {
      const client = await front(era, answer);
      const result = await client.send('tools/call', { name: client.job, arguments: { steps: 2, ask: true } });
      expect(textOf(result), era).toBe(`job done after 2 steps (answer: ${answer})`);
      expect(client.asked, era).toEqual(['Go on with the job?']);
    }
  }, 30_000);

  it('2026 front that declares the extension: a call of job creates the task (resultType "task"); a tool answered in the call passes through', async () => {
    const { send, nameOf } = await barePeer();
    const created = await send('tools/call', { name: nameOf('job'), arguments: { steps: 2 } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 20 });
    expect(created).not.toHaveProperty('content');
    const last = (await pollUntilTerminal(send, String(created.taskId))).at(-1) ?? {};
    expect(last).toMatchObject({ taskId: created.taskId, status: 'completed' });
    expect(textOf((last.result ?? {}) as Record<string, unknown>)).toBe('job done after 2 steps');

    // The backend decides per call: echo is answered in the call (the extension was offered to it all the same).
    const echoed = await send('tools/call', { name: nameOf('echo'), arguments: { message: 'hi' } });
    expect(echoed).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Echo: hi' }] });
    expect(echoed).not.toHaveProperty('taskId');
  }, 30_000);

  it("2026 front: a task that asks for input shows input_required with the backend's inputRequests; tasks/update answers them and the task completes", async () => {
    const { send, nameOf } = await barePeer();
    const created = await send('tools/call', { name: nameOf('job'), arguments: { steps: 2, ask: true } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.taskId);
    const deadline = Date.now() + 20_000;
    let asking = await send('tasks/get', { taskId });
    while (asking.status === 'working' && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      asking = await send('tasks/get', { taskId });
    }
    expect(asking).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'input_required',
      statusMessage: 'waiting for an answer',
      inputRequests: { 'confirm-1': { method: 'elicitation/create', params: { message: 'Go on with the job?' } } },
    });
    // Still waiting: a second look shows the same requests.
    expect(await send('tasks/get', { taskId })).toMatchObject({
      status: 'input_required',
      inputRequests: asking.inputRequests,
    });

    const acknowledged = await send('tasks/update', {
      taskId,
      inputResponses: { 'confirm-1': { action: 'accept', content: { answer: 'blue' } } },
    });
    expect(Object.keys(acknowledged).filter((key) => key !== '_meta')).toEqual(['resultType']);
    const seen = await pollUntilTerminal(send, taskId);
    expect(seen.filter((task) => task.status === 'input_required')).toEqual([]);
    expect(seen.at(-1)).toMatchObject({ status: 'completed' });
    expect(textOf((seen.at(-1)?.result ?? {}) as Record<string, unknown>)).toBe(
      'job done after 2 steps (answer: blue)',
    );
  }, 30_000);

  it('2025 front (the 1.x SDK client): tasks/result of a task that asks for input sends it elicitation/create (the related task ours) and answers the task with tasks/update', async () => {
    const client = new LegacyClient(
      { name: 'backend-tasks-1x', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: Array<{ message: unknown; related: unknown }> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push({
        message: request.params.message,
        related: request.params._meta?.['io.modelcontextprotocol/related-task'],
      });
      return { action: 'accept', content: { answer: 'violet' } };
    });
    closers.push(await connectThroughEntry(client, serverForAnn));
    const send = (method: string, params: Record<string, unknown>) =>
      client.request({ method, params } as never, z.looseObject({}), { timeout: 30_000 }) as Promise<
        Record<string, unknown>
      >;
    const { tools } = (await send('tools/list', {})) as { tools: Array<{ name: string }> };
    const job = tools.map((tool) => tool.name).find((name) => name.endsWith('job')) ?? 'job';
    const created = await send('tools/call', { name: job, arguments: { steps: 2, ask: true }, task: {} });
    const taskId = String((created.task as { taskId?: unknown }).taskId);
    const result = await send('tasks/result', { taskId });
    expect(textOf(result)).toBe('job done after 2 steps (answer: violet)');
    expect(result._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
    expect(asked).toEqual([{ message: 'Go on with the job?', related: { taskId } }]);
  }, 30_000);

  it('2025 front that cannot be asked: the input stays unanswered with a warning naming the task, until the client cancels it', async () => {
    const legacy = await front('legacy');
    const created = await legacy.send('tools/call', { name: legacy.job, arguments: { steps: 2, ask: true }, task: {} });
    const taskId = String((created.task as { taskId?: unknown }).taskId);
    const warned = new Promise<void>((resolve) => {
      onWarning = resolve;
    });
    const waiting = legacy.send('tasks/result', { taskId }).then(
      () => 'answered',
      (error: unknown) => String(error),
    );
    await warned;
    onWarning = undefined;
    expect(warnings.at(-1)).toEqual({
      message: 'a task asks the client for input it cannot answer; the input stays unanswered',
      fields: {
        server: 'jobs',
        task: taskId,
        key: 'confirm-1',
        method: 'elicitation/create',
        reason: 'The client does not support elicitation',
      },
    });
    expect(await legacy.send('tasks/get', { taskId })).toMatchObject({ taskId, status: 'input_required' });
    await legacy.send('tasks/cancel', { taskId });
    expect(await waiting).toMatch(/cancelled by the client/);
  }, 30_000);

  it("offers a 2026 client's task for any tool of a 2026 backend that offers tasks, given the backend's status", async () => {
    const tool = (await manager.listTools('jobs')).find((entry) => entry.toolName === 'job');
    const [status] = manager.status();
    expect(tool?.definition).not.toHaveProperty('execution');
    if (!tool || !status) throw new Error('no job tool or status');
    expect(runsAsTask(tool)).toBe(false);
    expect(runsAsTask(tool, status)).toBe(true);
    expect(runsAsTask(tool, { ...status, features: ['tools'] })).toBe(false);
    expect(runsAsTask(tool, { ...status, protocolEra: 'legacy' })).toBe(false);
  });
});
