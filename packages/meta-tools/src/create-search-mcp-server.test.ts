import { EventEmitter } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolCatalog, ToolRegistry } from '@search-mcp/catalog';
import {
  ServerNotRunningError,
  type ServerStatus,
  type ToolCallResult,
  type ToolInfo,
  type ToolSource,
} from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditRecord } from './audit/audit-record.js';
import { createSearchMcpServer } from './create-search-mcp-server.js';
import type { SearchMcpServerOptions } from './search-mcp-server-options.js';
import { EXPOSED_NAME_PATTERN } from './exposed-tool-names.js';

const Loose = z.looseObject({});
const longName = `a${'-very-long-tool-name'.repeat(3)}`;

class DisconnectedSource implements ToolSource {
  readonly toolsRevision = 0;
  readonly serverIds = ['fs'];
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    throw new ServerNotRunningError({ serverId });
  }
}

class FakeManager extends EventEmitter {
  states: ServerStatus[] = [];
  status(): ServerStatus[] {
    return this.states;
  }
}

interface RegistryHooks {
  /** The `steps` tool saw its signal aborted before this step. */
  onStepsCancelled?: (step: number) => void;
}

function createRegistry(hooks: RegistryHooks = {}): ToolRegistry {
  const registry = new ToolRegistry({ description: 'Host tools', timeoutMs: 300 });
  registry.register(
    {
      name: 'echo',
      description: 'Echo a message back to the caller',
      parameters: [{ name: 'message', type: 'string', description: 'The text to echo', required: true }],
    },
    ({ message }) => `Echo: ${String(message)}`,
  );
  registry.register(
    {
      name: 'count-words',
      description: 'Count the words in a text',
      parameters: [{ name: 'text', type: 'string', description: 'The text', required: true }],
    },
    ({ text }) => String(text).split(/\s+/).filter(Boolean).length,
  );
  registry.register({ name: 'rich', description: 'Returns content blocks with extra fields' }, () => ({
    content: [
      { type: 'text', text: 'hi', vendorField: 1 },
      { type: 'x-future-block', payload: 42 },
    ],
    structuredContent: { ok: true },
    _meta: { trace: 'abc' },
  }));
  registry.register(
    { name: 'steps', description: 'Works in steps, reporting progress, until cancelled or done' },
    async (_args, context) => {
      for (let step = 1; step <= 50; step += 1) {
        if (context.signal.aborted) {
          hooks.onStepsCancelled?.(step);
          return 'cancelled';
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        context.reportProgress({ progress: step, total: 50, message: `step ${step}` });
      }
      return 'done';
    },
  );
  registry.register({ name: 'hang', description: 'Never answers' }, () => new Promise(() => {}));
  registry.register({ name: longName, description: 'A tool with a name too long to list as it is' }, () => 'long');
  return registry;
}

const clients: Client[] = [];

async function connect(
  overrides: Partial<SearchMcpServerOptions> = {},
  config: Record<string, unknown> = {},
  hooks: RegistryHooks = {},
) {
  const registry = createRegistry(hooks);
  const catalog = new ToolCatalog({
    sources: [registry, new DisconnectedSource()],
    config: {
      mcpServers: { fs: { command: 'fs-server', description: 'Files on disk' } },
      exposure: { pinned: ['local:echo'] },
      ...config,
    },
    executor: { retries: 0 },
  });
  const records: AuditRecord[] = [];
  const server = createSearchMcpServer({ catalog, audit: { record: (record) => records.push(record) }, ...overrides });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return { client, registry, records, server, catalog };
}

/** Resolves when `emitter` gets a listener for `event`. */
function listenerAdded(emitter: EventEmitter, event: string): Promise<void> {
  return new Promise((resolve) => {
    const onNewListener = (name: string | symbol) => {
      if (name !== event) return;
      emitter.off('newListener', onNewListener);
      resolve();
    };
    emitter.on('newListener', onNewListener);
  });
}

/** Resolves with the result of the next call of `object[method]` (the method keeps working as before). */
function nextCall<T extends object, K extends keyof T>(object: T, method: K): Promise<unknown> {
  const original = object[method] as (...args: unknown[]) => unknown;
  return new Promise((resolve) => {
    object[method] = ((...args: unknown[]) => {
      object[method] = original as T[K];
      const result = original.apply(object, args);
      resolve(result);
      return result;
    }) as T[K];
  });
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, Loose)) as ToolCallResult;
}

function textOf(result: ToolCallResult): string {
  return (result.content?.[0] as { text?: string } | undefined)?.text ?? '';
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('meta mode', () => {
  it('lists exactly tool_discovery, tool_execute and the pinned tools, with valid names', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute', 'local__echo']);
    expect(tools.every((tool) => EXPOSED_NAME_PATTERN.test(tool.name))).toBe(true);
    expect(tools[2]?.inputSchema).toMatchObject({ required: ['message'] });
  });

  it('sends instructions naming the servers and how to use the meta-tools', async () => {
    const { client } = await connect();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('tool_discovery');
    expect(instructions).toContain('- fs: Files on disk');
  });

  it('discovers tools at each detail level, as structured content and the same JSON as text', async () => {
    const { client } = await connect();
    const summary = await call(client, 'tool_discovery', { query: ['echo a message', 'say it back'] });
    const structured = summary.structuredContent as { results: Array<Record<string, unknown>> };
    expect(structured.results[0]).toMatchObject({
      toolKey: 'local:echo',
      toolName: 'echo',
      serverName: 'local',
      relevance: 1,
    });
    expect(structured.results[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'The text to echo' } },
      required: ['message'],
    });
    expect(JSON.parse(textOf(summary))).toEqual(structured);
    const minimal = (await call(client, 'tool_discovery', { query: 'count words', detail: 'minimal', maxResults: 1 }))
      .structuredContent as { results: Array<Record<string, unknown>> };
    expect(minimal.results).toHaveLength(1);
    expect(Object.keys(minimal.results[0] ?? {}).sort()).toEqual([
      'description',
      'relevance',
      'serverName',
      'toolKey',
      'toolName',
    ]);
    const none = (await call(client, 'tool_discovery', { query: 'zzqx unrelated gibberish' })).structuredContent as {
      results: unknown[];
    };
    expect(none.results).toEqual([]);
  });

  it('answers bad discovery arguments with an isError result a model can act on', async () => {
    const { client } = await connect();
    const result = await call(client, 'tool_discovery', { maxResults: 3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Invalid tool_discovery arguments: query: .*Pass query as a string or an array of strings\.$/,
    );
  });

  it('executes a tool by key and returns its result unchanged', async () => {
    const { client } = await connect();
    expect(await call(client, 'tool_execute', { toolKey: 'local:echo', arguments: { message: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
    expect(
      await call(client, 'tool_execute', { toolKey: 'local:echo', arguments: '{"message":"as a string"}' }),
    ).toEqual({ content: [{ type: 'text', text: 'Echo: as a string' }] });
    const rich = await call(client, 'tool_execute', { toolKey: 'local:rich' });
    expect(rich).toEqual({
      content: [
        { type: 'text', text: 'hi', vendorField: 1 },
        { type: 'x-future-block', payload: 42 },
      ],
      structuredContent: { ok: true },
      _meta: { trace: 'abc' },
    });
  });

  it('answers tool_execute failures with isError: nearest keys, every validation problem, server down', async () => {
    const { client } = await connect();
    const unknown = await call(client, 'tool_execute', { toolKey: 'local:ecoh', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(
      'Tool not found: local:ecoh. Did you mean: local:echo? Use tool_discovery to find tools.',
    );
    const invalid = await call(client, 'tool_execute', {
      toolKey: 'local:echo',
      arguments: { message: 5, extra: true },
    });
    expect(textOf(invalid)).toMatch(
      /^Invalid arguments for local:echo: arguments.message: must be string\. Fix the arguments/,
    );
    const down = await call(client, 'tool_execute', { toolKey: 'fs:read_file', arguments: { path: '/x' } });
    expect(textOf(down)).toBe("MCP server 'fs' is not running (temporary; try again shortly)");
    const missingKey = await call(client, 'tool_execute', { arguments: {} });
    expect(textOf(missingKey)).toMatch(/^Invalid tool_execute arguments: toolKey/);
  });

  it('waits a bounded time for starting servers, then says which are still starting', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting', toolCount: 0, restarts: 0 }];
    const { client } = await connect({ manager, startupWaitMs: 100 });
    const result = (await call(client, 'tool_discovery', { query: 'read a file' })).structuredContent as {
      notice?: string;
    };
    expect(result.notice).toBe('Still connecting: fs. Their tools are not searched yet; search again shortly.');
  });

  it('names failed servers of the caller in the notice, with their reason', async () => {
    const manager = new FakeManager();
    manager.states = [
      { id: 'fs', state: 'failed', toolCount: 0, restarts: 0, lastError: 'environment variable FS_TOKEN is not set' },
      { id: 'web', state: 'failed', toolCount: 0, restarts: 0, lastError: 'spawn web-server ENOENT' },
    ];
    const { client } = await connect(
      { manager },
      { mcpServers: { fs: { command: 'fs-server' }, web: { command: 'web-server', projects: ['site'] } } },
    );
    const result = (await call(client, 'tool_discovery', { query: 'echo' })).structuredContent as { notice?: string };
    expect(result.notice).toBe(
      'Not available: fs (environment variable FS_TOKEN is not set). Their tools cannot be found or run until this is fixed.',
    );
  });

  it('says when no tool matches the request well, and keeps the best hit below relevance 1', async () => {
    const { client } = await connect();
    const result = (await call(client, 'tool_discovery', { query: 'send an email to the finance team' }))
      .structuredContent as { notice?: string; results: Array<{ relevance: number }> };
    expect(result.notice).toMatch(/^no tool matches 'send an email to the finance team'/);
    expect(result.results[0]?.relevance ?? 0).toBeLessThan(1);
    const good = (await call(client, 'tool_discovery', { query: 'echo a message' })).structuredContent as {
      notice?: string;
    };
    expect(good.notice).toBeUndefined();
  });

  it('searches as soon as the starting servers have settled', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting', toolCount: 0, restarts: 0 }];
    const { client } = await connect({ manager, startupWaitMs: 60_000 });
    const waiting = listenerAdded(manager, 'status-change');
    const discovery = call(client, 'tool_discovery', { query: 'echo a message' });
    // The discovery is waiting for the server: let it finish connecting.
    await waiting;
    manager.states = [{ id: 'fs', state: 'running', toolCount: 0, restarts: 0 }];
    manager.emit('status-change');
    const result = (await discovery).structuredContent as { notice?: string; results: Array<{ toolKey: string }> };
    expect(result.notice).toBeUndefined();
    expect(result.results[0]?.toolKey).toBe('local:echo');
  });
});

describe('direct tools/call (both modes)', () => {
  it.each(['meta', 'proxy'] as const)('accepts every key form in %s mode', async (mode) => {
    const { client } = await connect({ mode });
    for (const name of ['local:echo', 'local.echo', 'local__echo']) {
      expect(await call(client, name, { message: name })).toEqual({
        content: [{ type: 'text', text: `Echo: ${name}` }],
      });
    }
  });

  it('maps failures to the JSON-RPC errors of the contract', async () => {
    const { client } = await connect();
    const errorOf = async (name: string, args: Record<string, unknown> = {}) =>
      (await call(client, name, args).catch((error: unknown) => error)) as McpError;
    const unknown = await errorOf('nope:tool');
    expect([unknown.code, unknown.message]).toEqual([-32602, 'MCP error -32602: Tool not found: nope:tool']);
    const notRunning = await errorOf('fs:read_file', { path: '/x' });
    expect([notRunning.code, notRunning.message]).toEqual([-32000, "MCP error -32000: MCP server 'fs' is not running"]);
    const timeout = await errorOf('local:hang');
    expect(timeout.code).toBe(-32001);
    const invalid = await errorOf('local:echo', { message: 1 });
    expect(invalid.code).toBe(-32602);
    expect(invalid.data).toEqual({ issues: [{ path: 'arguments.message', message: 'must be string' }] });
    const malformed = (await client
      .request({ method: 'tools/call', params: { name: 42 } } as never, Loose)
      .catch((error: unknown) => error)) as McpError;
    expect([malformed.code, malformed.message]).toEqual([
      -32602,
      'MCP error -32602: Invalid tools/call params: "name" must be a non-empty string',
    ]);
  });
});

describe('refused callers', () => {
  const tokens = { auth: { tokens: [{ id: 'ci', token: 'ci-secret', projects: ['web'] }] } };
  const asCi = {
    resolveCaller: ({ meta }: { meta: Record<string, unknown> | undefined }) => ({
      tokenId: 'ci',
      ...(typeof meta?.projectId === 'string' ? { projectId: meta.projectId } : {}),
    }),
  };

  it.each(['meta', 'proxy'] as const)(
    'answers tools/list with the error of a refused caller, not -32603 (%s mode)',
    async (mode) => {
      const { client } = await connect({ mode, ...asCi }, tokens);
      const forbidden = (await client
        .request({ method: 'tools/list', params: { _meta: { projectId: 'other' } } }, Loose)
        .catch((error: unknown) => error)) as McpError;
      expect([forbidden.code, forbidden.message]).toEqual([
        -32000,
        "MCP error -32000: Token 'ci' may not be used for project 'other'; it is limited to: web",
      ]);
      const tooLong = (await client
        .request({ method: 'tools/list', params: { _meta: { projectId: 'web'.repeat(100) } } }, Loose)
        .catch((error: unknown) => error)) as McpError;
      expect([tooLong.code, tooLong.message]).toEqual([
        -32602,
        'MCP error -32602: Invalid projectId: must be at most 256 characters',
      ]);
      expect(tooLong.data).toEqual({ issues: [{ path: 'projectId', message: 'must be at most 256 characters' }] });
      expect(
        (await client.request({ method: 'tools/list', params: { _meta: { projectId: 'web' } } }, Loose)).tools,
      ).toBeDefined();
    },
  );

  it('answers a direct tools/call of a refused caller with its error, not -32603', async () => {
    const { client } = await connect({ ...asCi }, tokens);
    const refused = (await client
      .request(
        {
          method: 'tools/call',
          params: { name: 'local:echo', arguments: { message: 'x' }, _meta: { projectId: 'other' } },
        },
        Loose,
      )
      .catch((error: unknown) => error)) as McpError;
    expect(refused.code).toBe(-32000);
    expect(refused.message).toContain("Token 'ci' may not be used for project 'other'");
  });
});

describe('proxy mode', () => {
  it('lists every tool under its exposed name, sorted, definitions passed through', async () => {
    const { client } = await connect({ mode: 'proxy' });
    const { tools } = await client.request(
      { method: 'tools/list', params: {} },
      z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }),
    );
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('local__count-words');
    expect(names).not.toContain('tool_discovery');
    const hashed = names.find((name) => name.startsWith('local__a-very'));
    expect(hashed).toMatch(/^local__a-very-long[\w-]*_[0-9a-f]{8}$/);
    expect(hashed?.length).toBeLessThanOrEqual(64);
    expect(names.every((name) => EXPOSED_NAME_PATTERN.test(name))).toBe(true);
    expect(await call(client, hashed ?? '', {})).toEqual({ content: [{ type: 'text', text: 'long' }] });
  });

  it('sends tools/list_changed (debounced) when the listed tools change, and not when they do not', async () => {
    const manager = new FakeManager();
    const { client, registry, catalog } = await connect({ mode: 'proxy', manager, listChangedDebounceMs: 20 });
    await client.listTools();
    const received: number[] = [];
    let notified: () => void = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      received.push(received.length + 1);
      notified();
    });
    const nextNotification = () =>
      new Promise<void>((resolve) => {
        notified = resolve;
      });

    let notification = nextNotification();
    registry.register({ name: 'fresh', description: 'Just added' }, () => 'new');
    manager.emit('tools-changed');
    manager.emit('tools-changed');
    await notification;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('local__fresh');

    // A change event that changes nothing: the check runs (it lists the tools) but sends nothing. The check runs
    // without I/O, so it is over before the next timer; a notification of it would arrive before the next one.
    const checked = nextCall(catalog, 'visibleTools');
    manager.emit('tools-changed');
    await checked;
    notification = nextNotification();
    registry.register({ name: 'fresher', description: 'Added later' }, () => 'newer');
    manager.emit('tools-changed');
    await notification;
    expect(received).toEqual([1, 2]);
  });
});

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
