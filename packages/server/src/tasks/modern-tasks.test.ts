import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { connectBarePeer, connectThroughEntry, modernEnvelope } from '../../test/stdio-entry-link.js';

// A 2025 backend's task seen by a 2026-07-28 client. server-everything's simulate-research-query requires a task
// (`execution.taskSupport: "required"`, ttl 5 min, pollInterval 1 s, a few seconds of work). A 2025-era front client
// creates it (task-augmented tools/call); a 2026 client of the same token follows it with the extension's methods.
const require = createRequire(import.meta.url);
const everythingManifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = Object.values((require(everythingManifest) as { bin: Record<string, string> }).bin)[0] ?? '';

let manager: McpClientManager;
let catalog: ToolCatalog;
let hub: ForwardingHub;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: { everything: { command: process.execPath, args: [join(dirname(everythingManifest), everythingBin)] } },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({
    sources: [manager],
    config,
    executor: { retries: 0 },
    tokens: [{ id: 'ann' }, { id: 'bob' }],
  });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  const started = await manager.startAll();
  expect(started.map((status) => status.state)).toEqual(['running']);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A Search MCP server (proxy mode) over the shared parts; the caller's token comes from `_meta.token`. */
const searchMcpServer = (context: { era: 'legacy' | 'modern' }, stateless = false) =>
  createSearchMcpServer({
    stateless,
    catalog,
    manager,
    // No `pendingInputs`: every instance takes the hub's, so a retry on another instance finds its held call.
    hub,
    mode: 'proxy',
    era: context.era,
    resolveCaller: ({ meta }) => (typeof meta?.token === 'string' ? { tokenId: meta.token } : {}),
  });

const withTasksExtension = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * A bare 2026-07-28 peer: JSON-RPC requests with the envelope, answers as they are on the wire (the 2.x client would
 * lift `resultType`, and refuses to send methods the revision does not have).
 */
async function barePeer(token: string, capabilities: Record<string, unknown> = withTasksExtension) {
  const peer = await connectBarePeer(searchMcpServer, { ...modernEnvelope(capabilities), token });
  closers.push(peer.close);
  return peer.send;
}

/**
 * A bare 2026-07-28 peer over the SDK's Streamable HTTP handler, as the HTTP app serves 2026 clients: one server
 * instance per request (a new session each time, `stateless`), `Mcp-Method`/`Mcp-Name` headers, JSON or SSE answers.
 * `instances` counts the instances made.
 */
function httpPeer(token: string | undefined, capabilities: Record<string, unknown> = withTasksExtension) {
  const instances = { count: 0 };
  const handler = createMcpHandler((context) => {
    instances.count += 1;
    return searchMcpServer(context, true);
  });
  let nextId = 0;
  const send = async (method: string, params: Record<string, unknown>) => {
    const id = ++nextId;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bare-http', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method,
          params: { ...params, _meta: token !== undefined ? { ...envelope, token } : envelope },
        }),
      }),
    );
    const text = await response.text();
    const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
      : [JSON.parse(text) as Record<string, unknown>];
    const answer = messages.find((message) => message.id === id);
    if (answer === undefined) throw new Error(`no answer to ${method} in: ${text}`);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result as Record<string, unknown>;
  };
  return { send, instances };
}

/** A 2.x SDK client (pinned 2026-07-28 or legacy) to a Search MCP server in proxy mode; `token` names its caller. */
async function front(era: 'modern' | 'legacy', token: string) {
  const client = new Client(
    { name: `tasks-${era}`, version: '1' },
    // The extension's methods are for 2026 clients that declare it (2025 clients have core tasks).
    {
      capabilities: era === 'modern' ? withTasksExtension : {},
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  closers.push(await connectThroughEntry(client, searchMcpServer));
  const send = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params: { ...params, _meta: { token } } }, z.looseObject({}), {
      timeout: 30_000,
    }) as Promise<Record<string, unknown>>;
  return { client, send };
}

/** The research tool's name as Search MCP lists it in proxy mode. */
async function researchToolName(send: (method: string, params: Record<string, unknown>) => Promise<unknown>) {
  const { tools } = (await send('tools/list', {})) as { tools: Array<{ name: string }> };
  const name = tools.map((tool) => tool.name).find((candidate) => candidate.endsWith('simulate-research-query'));
  if (!name) throw new Error(`no research tool in ${tools.map((tool) => tool.name).join(', ')}`);
  return name;
}

/** A task created by a 2025-era client of `token`: its id as Search MCP exposes it, and that client. */
async function createdTask(token: string, topic: string) {
  const legacy = await front('legacy', token);
  const name = await researchToolName(legacy.send);
  const created = await legacy.send('tools/call', { name, arguments: { topic }, task: { ttl: 60_000 } });
  const task = created.task as { taskId?: unknown } | undefined;
  expect(typeof task?.taskId).toBe('string');
  return { taskId: String(task?.taskId), legacy };
}

/** Polls `tasks/get` at the task's own `pollIntervalMs` (the protocol's pace) until it is terminal. */
async function pollUntilTerminal(
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  taskId: string,
) {
  const seen: Array<Record<string, unknown>> = [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    const task = (await send('tasks/get', { taskId })) as Record<string, unknown>;
    seen.push(task);
    if (['completed', 'failed', 'cancelled'].includes(String(task.status))) return seen;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(task.status)} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, Number(task.pollIntervalMs ?? 1000)));
  }
}

/** Polls `tasks/get` at the task's own interval while it is `working` (server-everything asks about 2 s in). */
async function pollWhileWorking(
  send: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
  taskId: string,
) {
  const deadline = Date.now() + 30_000;
  let task = await send('tasks/get', { taskId });
  while (task.status === 'working' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Number(task.pollIntervalMs ?? 1000)));
    task = await send('tasks/get', { taskId });
  }
  return task;
}

/** A result without its `_meta` (a 2026 answer carries Search MCP's serverInfo there). */
const body = (result: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(result).filter(([key]) => key !== '_meta'));

const wireErrorOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(ProtocolError.isInstance(error), String(error)).toBe(true);
  const { code, message } = error as ProtocolError;
  return { code, message };
};

describe('the tasks extension for 2026-07-28 clients, over a 2025 backend task', () => {
  it('shows the task in the extension shape (ttlMs, pollIntervalMs, our id) and its result inline once completed', async () => {
    const { taskId, legacy } = await createdTask('ann', 'rust');
    const modern = await front('modern', 'ann');
    // The same task as the 2025 client sees it (the backend chooses its ttl and poll interval).
    const old = await legacy.send('tasks/get', { taskId });
    expect(old).toMatchObject({ taskId, ttl: expect.any(Number), pollInterval: expect.any(Number) });
    const seen = await pollUntilTerminal(modern.send, taskId);
    const first = seen[0] ?? {};
    expect(first).toMatchObject({ taskId, ttlMs: old.ttl, pollIntervalMs: old.pollInterval, createdAt: old.createdAt });
    expect(Object.keys(first)).not.toEqual(expect.arrayContaining(['ttl']));
    expect(Object.keys(first)).not.toContain('pollInterval');
    const last = seen.at(-1) ?? {};
    expect(last.status).toBe('completed');
    const content = (last.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [];
    expect(content.map((block) => block.text).join('')).toContain('# Research Report: rust');
    // Before it completed, no result was shown.
    expect(seen.slice(0, -1).filter((task) => 'result' in task)).toEqual([]);
  }, 60_000);

  it('acknowledges tasks/update and tasks/cancel with empty results; another token, an unknown id or bad params are errors', async () => {
    const { taskId } = await createdTask('ann', 'go');
    const ann = await front('modern', 'ann');
    const bob = await front('modern', 'bob');

    expect(await wireErrorOf(bob.send('tasks/get', { taskId }))).toEqual({
      code: -32602,
      message: `Task not found: ${taskId}`,
    });
    expect(body(await ann.send('tasks/update', { taskId, inputResponses: {} }))).toEqual({});
    expect(await wireErrorOf(ann.send('tasks/update', { taskId: 'nope', inputResponses: {} }))).toEqual({
      code: -32602,
      message: 'Task not found: nope',
    });
    const badUpdate = await wireErrorOf(ann.send('tasks/update', { taskId }));
    expect(badUpdate.code).toBe(-32602);
    expect(badUpdate.message).toMatch(/^Invalid tasks\/update params: inputResponses: /);
    expect(badUpdate.message).not.toContain('\n');
    expect(await wireErrorOf(bob.send('tasks/cancel', { taskId }))).toMatchObject({ code: -32602 });

    expect(body(await ann.send('tasks/cancel', { taskId }))).toEqual({});
    const last = (await pollUntilTerminal(ann.send, taskId)).at(-1) ?? {};
    expect(last.status).toBe('cancelled');
    expect(last).not.toHaveProperty('result');
  }, 60_000);

  it('answers on the wire as the extension says (resultType "complete"); tasks/result and tasks/list are no methods', async () => {
    const { taskId } = await createdTask('ann', 'zig');
    const send = await barePeer('ann');
    const got = await send('tasks/get', { taskId });
    expect(got.result).toMatchObject({ resultType: 'complete', taskId, status: expect.any(String) });
    for (const method of ['tasks/result', 'tasks/list']) {
      const answer = await send(method, method === 'tasks/list' ? {} : { taskId });
      expect(answer.error, method).toMatchObject({ code: -32601 });
    }
    const acknowledged = await send('tasks/cancel', { taskId });
    expect(acknowledged.result).toMatchObject({ resultType: 'complete' });
  }, 60_000);

  it('creates a task for a client that declares the extension: resultType "task", tasks/get until completed, result inline', async () => {
    // The 2.x client cannot take `resultType: "task"` (SdkError UNSUPPORTED_RESULT_TYPE), so a bare peer reads the wire.
    const send = await barePeer('ann');
    const discovered = (await send('server/discover', {})).result as { capabilities?: Record<string, unknown> };
    expect(discovered.capabilities?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    const peerGet = async (method: string, params: Record<string, unknown>) => {
      const answer = await send(method, params);
      if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
      return answer.result as Record<string, unknown>;
    };
    const name = await researchToolName(peerGet);
    const created = await peerGet('tools/call', { name, arguments: { topic: 'ocaml' } });
    expect(created).toMatchObject({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('content');
    const taskId = String(created.taskId);
    const last = (await pollUntilTerminal(peerGet, taskId)).at(-1) ?? {};
    expect(last).toMatchObject({ resultType: 'complete', taskId, status: 'completed' });
    const content = (last.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [];
    expect(content.map((block) => block.text).join('')).toContain('# Research Report: ocaml');
    // The task is the caller's: another token does not find it.
    const bob = await barePeer('bob');
    expect((await bob('tasks/get', { taskId })).error).toMatchObject({
      code: -32602,
      message: `Task not found: ${taskId}`,
    });
    // A tool that does not run as a task answers in the call, extension or not.
    const echoName = name.replace('simulate-research-query', 'echo');
    expect(await peerGet('tools/call', { name: echoName, arguments: { message: 'hi' } })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
  }, 60_000);

  it('a 2025 backend task that asks for input: tasks/get shows the request it pushed under our key, tasks/update answers it, the task completes', async () => {
    const send = await barePeer('ann', { ...withTasksExtension, elicitation: { form: {} } });
    const peerGet = async (method: string, params: Record<string, unknown>) => {
      const answer = await send(method, params);
      if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
      return answer.result as Record<string, unknown>;
    };
    const name = await researchToolName(peerGet);
    const created = await peerGet('tools/call', { name, arguments: { topic: 'python', ambiguous: true } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.taskId);
    const task = await pollWhileWorking(peerGet, taskId);
    expect(task).toMatchObject({
      taskId,
      status: 'input_required',
      inputRequests: {
        'elicitation-1': {
          method: 'elicitation/create',
          params: { message: expect.stringContaining('multiple interpretations') },
        },
      },
    });
    // The backend's related-task _meta (its own task id) stays inside.
    expect(JSON.stringify(task.inputRequests)).not.toContain('related-task');
    // Shown again, under the same key, until it is answered.
    expect((await peerGet('tasks/get', { taskId })).inputRequests).toEqual(task.inputRequests);

    await peerGet('tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { interpretation: 'snake' } } },
    });
    const seen = await pollUntilTerminal(peerGet, taskId);
    expect(seen.filter((look) => look.status === 'input_required')).toEqual([]);
    const last = seen.at(-1) ?? {};
    expect(last).toMatchObject({ taskId, status: 'completed' });
    const content = (last.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [];
    expect(content.map((block) => block.text).join('')).toContain('# Research Report: python (snake)');
    // The tasks/result held open for the input ended with the task (the backend answers it at its poll interval).
    await vi.waitFor(() => expect(hub.pendingInputs.size).toBe(0), { timeout: 5000 });
  }, 60_000);

  it('a 2026 client cancelling a 2025 backend task that waits for input ends the tasks/result held for it', async () => {
    const send = await barePeer('ann', { ...withTasksExtension, elicitation: { form: {} } });
    const peerGet = async (method: string, params: Record<string, unknown>) => {
      const answer = await send(method, params);
      if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
      return answer.result as Record<string, unknown>;
    };
    const name = await researchToolName(peerGet);
    const created = await peerGet('tools/call', { name, arguments: { topic: 'python', ambiguous: true } });
    const taskId = String(created.taskId);
    expect(await pollWhileWorking(peerGet, taskId)).toMatchObject({ status: 'input_required' });
    expect(hub.pendingInputs.size).toBe(1);
    await peerGet('tasks/cancel', { taskId });
    expect(hub.pendingInputs.size).toBe(0);
    expect((await pollUntilTerminal(peerGet, taskId)).at(-1)).toMatchObject({ taskId, status: 'cancelled' });
  }, 60_000);

  it('refuses tasks/get, tasks/update and tasks/cancel of a client without the extension -32021, naming it', async () => {
    const { taskId } = await createdTask('ann', 'pascal');
    const send = await barePeer('ann', { elicitation: { form: {} } });
    const required = { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
      ['tasks/get', { taskId: 'gate-test' }],
    ] as const) {
      const answer = await send(method, params);
      expect(answer.error, method).toMatchObject({
        code: -32021,
        message: expect.stringContaining('io.modelcontextprotocol/tasks'),
        data: required,
      });
    }
    // The same token declaring it follows the task (it was not cancelled by the refused request).
    const declared = await barePeer('ann');
    expect((await declared('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    expect((await declared('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
  }, 60_000);

  it("gives a client without the extension the result in the call, also when it sends 2025's params.task", async () => {
    const send = await barePeer('ann', {});
    const discovered = (await send('server/discover', {})).result as { capabilities?: Record<string, unknown> };
    // The extension is listed (the server may use it); this client did not declare it, so it gets no task.
    expect(discovered.capabilities?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    const peerGet = async (method: string, params: Record<string, unknown>) =>
      (await send(method, params)).result as Record<string, unknown>;
    const name = await researchToolName(peerGet);
    const answer = await send('tools/call', { name, arguments: { topic: 'ada' }, task: { ttl: 60_000 } });
    expect(answer.error).toBeUndefined();
    const result = answer.result as { resultType?: string; content?: Array<{ text?: string }> };
    expect(result).not.toHaveProperty('task');
    expect(result.resultType).toBe('complete');
    expect((result.content ?? []).map((block) => block.text).join('')).toContain('# Research Report: ada');
  }, 60_000);

  it('over Streamable HTTP (an instance per request): the token finds its task on later requests, and answers its input on another; a tokenless caller gets the result in the call', async () => {
    const ann = httpPeer('ann', { ...withTasksExtension, elicitation: { form: {} } });
    const name = await researchToolName(ann.send);
    const created = await ann.send('tools/call', { name, arguments: { topic: 'elm', ambiguous: true } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.taskId);
    // The backend's request waits in the process, not in the instance that opened its tasks/result.
    const asking = await pollWhileWorking(ann.send, taskId);
    expect(asking).toMatchObject({ status: 'input_required', inputRequests: { 'elicitation-1': expect.any(Object) } });
    await ann.send('tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { interpretation: 'historical' } } },
    });
    const before = ann.instances.count;
    const seen = await pollUntilTerminal(ann.send, taskId);
    expect(ann.instances.count - before).toBe(seen.length);
    const last = seen.at(-1) ?? {};
    expect(last).toMatchObject({ taskId, status: 'completed' });
    const content = (last.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [];
    expect(content.map((block) => block.text).join('')).toContain('# Research Report: elm (historical)');
    await expect(httpPeer('bob').send('tasks/get', { taskId })).rejects.toThrow(`Task not found: ${taskId}`);

    // Without a token the owner would be the instance's session, gone with the request: no task.
    const anonymous = httpPeer(undefined);
    const plain = await anonymous.send('tools/call', { name, arguments: { topic: 'lua' } });
    expect(plain.resultType).toBe('complete');
    expect(plain).not.toHaveProperty('taskId');
    expect(((plain.content ?? []) as Array<{ text?: string }>).map((block) => block.text).join('')).toContain(
      '# Research Report: lua',
    );
  }, 60_000);
});
