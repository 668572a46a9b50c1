/**
 * Issue 10 over stdio in proxy mode, through the built binary: a backend that speaks only 2026-07-28 changes its tool
 * list (its `grow` tool; a 2026 backend announces that on its `subscriptions/listen` stream, never unsolicited), and
 * each client hears it in its own era — a 2025 client as `notifications/tools/list_changed`, a 2026 client on the
 * `subscriptions/listen` stream it opened. Proxy mode's lists carry 2026 cache hints (`public` without tokens or
 * projects); proxy `tools/call` bridges a backend's questions like meta mode does, and a client that declares neither
 * elicitation nor sampling gets a clear error instead of a hang. A 2026 backend's log message during a call reaches a
 * 2025 client, and a 2026 client only when its request asked for a log level. One search-mcp per client.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectProtocolEraClient,
  fillForm,
  fixtureServerPath,
  type ProtocolEraClientKind,
  type ProtocolEraSession,
} from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, deadlineMs, eventually, featureServer } from './forwarding-support.js';

const modernServer = fixtureServerPath('modern-server.mjs');
const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';

let directory: string;
let configPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-era-list-changed-'));
  configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        legacy: { command: process.execPath, args: [featureServer, '--name', 'legacy', '--prompt', 'greet'] },
        modern: { command: process.execPath, args: [modernServer] },
      },
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function connect(kind: ProtocolEraClientKind, withHandlers: boolean): Promise<ProtocolEraSession> {
  const session = await connectProtocolEraClient(
    kind,
    {
      transport: 'stdio',
      command: process.execPath,
      args: [cli, '--config', configPath, '--mode', 'proxy'],
      env: { HOME: directory, SEARCH_MCP_WATCH: '0' },
    },
    {
      connectTimeoutMs: deadlineMs,
      ...(withHandlers
        ? {
            handlers: {
              elicitation: (params: Record<string, unknown>) => fillForm(params, `from ${kind}`),
              sampling: () => ({
                role: 'assistant' as const,
                model: 'test-model',
                content: { type: 'text' as const, text: 'unused' },
              }),
            },
          }
        : {}),
    },
  );
  await eventually(async () => {
    const { tools } = await session.request('tools/list', {});
    const names = (tools as Array<{ name: string }>).map((tool) => tool.name);
    return names.includes('modern__grow') && names.includes('legacy__echo-meta') ? true : undefined;
  }, 'both backends listed');
  return session;
}

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** A call that failed: its JSON-RPC error's message, or the text of a tool result that reports an error. */
async function failureOf(pending: Promise<Record<string, unknown>>): Promise<string> {
  const outcome: Record<string, unknown> | Error = await pending.then(
    (result) => result,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  if (outcome instanceof Error) return outcome.message;
  expect(outcome.isError).toBe(true);
  return textOf(outcome);
}

async function toolNames(session: ProtocolEraSession): Promise<string[]> {
  const { tools } = await session.request('tools/list', {});
  return (tools as Array<{ name: string }>).map((tool) => tool.name);
}

const toolsChanged = (notification: { method: string }) => notification.method === 'notifications/tools/list_changed';

describe('sdk1 client (2025, no elicitation or sampling) ↔ search-mcp --mode proxy (stdio) ↔ both backend eras', () => {
  let session: ProtocolEraSession;

  beforeAll(async () => {
    session = await connect('sdk1', false);
  }, 90_000);

  afterAll(async () => {
    await session?.close();
  });

  it("hears the backend's tool-list change as notifications/tools/list_changed, and lists the new tool", async () => {
    expect(textOf(await session.request('tools/call', { name: 'modern__grow', arguments: {} }))).toBe('grew grown-1');
    await session.waitForNotification(toolsChanged, deadlineMs);
    expect(await toolNames(session)).toContain('modern__grown-1');
    expect(textOf(await session.request('tools/call', { name: 'modern__grown-1', arguments: {} }))).toBe('grown-1');
  }, 60_000);

  it("gets a 2026 backend's log message of a call as notifications/message", async () => {
    const result = await session.request('tools/call', { name: 'modern__log', arguments: { message: 'to 2025' } });
    expect(textOf(result)).toBe('logged');
    const logged = await session.waitForNotification(
      (notification) => notification.method === 'notifications/message' && notification.params.data === 'to 2025',
      deadlineMs,
    );
    expect(logged.params).toMatchObject({ level: 'info' });
  });

  it('gets a clear error instead of a hang when either backend asks; its lists carry no cache fields', async () => {
    // Issue 9's relay, unchanged: search-mcp refuses the 2025 backend's request (-32601) and the backend reports it.
    const legacy = await failureOf(
      session.request('tools/call', { name: 'legacy__ask-elicitation', arguments: { message: 'No?' } }),
    );
    expect(legacy).toContain('Method not found');
    // The 2026 backend was told this client's capabilities (none), so its SDK refuses to ask.
    const modern = await failureOf(session.request('tools/call', { name: 'modern__ask', arguments: {} }));
    expect(modern).toContain(
      "Cannot request input 'answer' (elicitation/create): the request's client capabilities do not declare",
    );
    expect(session.asked).toEqual([]);
    const listed = await session.request('tools/list', {});
    expect(listed.cacheScope).toBeUndefined();
    expect(listed.ttlMs).toBeUndefined();
  });
});

describe('sdk2 client pinned to 2026-07-28 ↔ search-mcp --mode proxy (stdio) ↔ a 2026-only backend', () => {
  let session: ProtocolEraSession;

  beforeAll(async () => {
    session = await connect('sdk2-2026', true);
  }, 90_000);

  afterAll(async () => {
    await session?.close();
  });

  it("hears the backend's tool-list change on its subscriptions/listen stream, and lists the new tool", async () => {
    const stream = await session.listen({ toolsListChanged: true });
    try {
      expect(stream.honoredFilter).toMatchObject({ toolsListChanged: true });
      expect(textOf(await session.request('tools/call', { name: 'modern__grow', arguments: {} }))).toBe('grew grown-1');
      await session.waitForNotification(toolsChanged, deadlineMs);
      // It came on the stream: the notification names the subscription (2026 has no unsolicited notifications).
      const onTheWire = session.received.find((message) => message.method === 'notifications/tools/list_changed');
      expect((onTheWire?.params as { _meta?: Record<string, unknown> } | undefined)?._meta).toHaveProperty(
        subscriptionIdKey,
      );
      expect(await toolNames(session)).toContain('modern__grown-1');
    } finally {
      await stream.close();
    }
  }, 60_000);

  it("gets a 2026 backend's log message of a call only when its request asks for a log level", async () => {
    const logLevelKey = 'io.modelcontextprotocol/logLevel';
    // The backend logs both (search-mcp asks its backends for every level); the client gets only what it asked for.
    await session.request('tools/call', { name: 'modern__log', arguments: { message: 'unasked' } });
    const asked = await session.request('tools/call', {
      name: 'modern__log',
      arguments: { message: 'asked for' },
      _meta: { [logLevelKey]: 'info' },
    });
    expect(textOf(asked)).toBe('logged');
    const logged = await session.waitForNotification(
      (notification) => notification.method === 'notifications/message' && notification.params.data === 'asked for',
      deadlineMs,
    );
    expect(logged.params).toMatchObject({ level: 'info' });
    // Both travel the same relay in order: had the first been sent, it would have arrived before the second.
    expect(session.notifications.some((notification) => notification.params.data === 'unasked')).toBe(false);
  });

  it('gets public cache hints on the aggregate lists (no tokens, no projects), settled for 60 s', async () => {
    const tools = await session.request('tools/list', {});
    expect(tools).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const prompts = await session.request('prompts/list', {});
    expect((prompts.prompts as Array<{ name: string }>).map((prompt) => prompt.name)).toContain('legacy__greet');
    expect(prompts).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
  });

  it("gets either backend's question as input_required in a proxy tools/call", async () => {
    const asked = session.asked.length;
    const modern = await session.request('tools/call', { name: 'modern__ask', arguments: { message: 'Proxy?' } });
    expect(textOf(modern)).toBe('You said: from sdk2-2026');
    const legacy = await session.request('tools/call', {
      name: 'legacy__ask-elicitation',
      arguments: { message: 'Legacy proxy?' },
    });
    expect(JSON.parse(textOf(legacy))).toEqual({ action: 'accept', content: { name: 'from sdk2-2026' } });
    expect(session.asked.slice(asked).map((entry) => entry.params.message)).toEqual(['Proxy?', 'Legacy proxy?']);
    // Never as a request: a 2.x client on 2026-07-28 would drop one.
    expect(session.received.filter((message) => message.method === 'elicitation/create')).toEqual([]);
  });
});
