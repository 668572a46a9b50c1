/**
 * Issue 9 through the built `search-mcp-http` with two Streamable HTTP sessions at once: a backend's reverse request
 * reaches the session whose call caused it, never the other one; subscriptions and tasks belong to their session.
 * One app process for the file (proxy mode, anonymous callers).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { everythingEntry, repoRoot, temporaryDirectory } from './http-test-support.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const Loose = z.looseObject({});
const deadlineMs = 30_000;
const stepTimeoutMs = 90_000;

interface LabelledSession {
  client: Client;
  label: string;
  sampled: number;
  elicited: number;
  updates: string[];
  /** Resolves on this session's next sampling request; the handler answers only when `release` is called. */
  holdNextSampling(): Promise<{ release: () => void }>;
}

let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;
const open: Client[] = [];

function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${deadlineMs} ms\n${app.stderr()}`)), deadlineMs);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

async function openSession(label: string, capabilities: Record<string, unknown> = { sampling: {} }) {
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`));
  const client = new Client({ name: `http-${label}`, version: '1' }, { capabilities });
  const holds: Array<(release: { release: () => void }) => void> = [];
  const session: LabelledSession = {
    client,
    label,
    sampled: 0,
    elicited: 0,
    updates: [],
    holdNextSampling: () => withDeadline(new Promise((resolve) => holds.push(resolve)), `sampling in ${label}`),
  };
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      session.sampled += 1;
      const hold = holds.shift();
      if (hold) await new Promise<void>((release) => hold({ release }));
      return { model: 'test', role: 'assistant', content: { type: 'text', text: `sampled by ${label}` } };
    });
  }
  if (capabilities.elicitation) {
    // Each session answers with its own choice, so the report shows whose answer the backend got.
    client.setRequestHandler(ElicitRequestSchema, async () => {
      session.elicited += 1;
      return { action: 'accept', content: { interpretation: label === 'A' ? 'programming' : `chosen by ${label}` } };
    });
  }
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
    session.updates.push(notification.params.uri);
  });
  await client.connect(transport);
  open.push(client);
  return session;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}, task?: Record<string, unknown>) {
  return (await client.request(
    { method: 'tools/call', params: { name, arguments: args, ...(task ? { task } : {}) } },
    Loose,
    { timeout: 120_000 },
  )) as Record<string, unknown> & { content?: Array<{ text?: string }> };
}

const textOf = (result: { content?: Array<{ text?: string }> }) =>
  (result.content ?? []).map((block) => block.text ?? '').join('\n');

async function errorOf(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected an error');
}

let a: LabelledSession;
let b: LabelledSession;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [everythingEntry] },
        a: { command: process.execPath, args: [featureServer, '--name', 'a', '--resources', '2'] },
      },
      auth: { allowAnonymous: true },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'proxy']);
  a = await openSession('A');
  b = await openSession('B');
  // Both backends running: their tools are listed.
  const end = Date.now() + deadlineMs;
  for (;;) {
    const { tools } = await a.client.listTools();
    if (tools.some((tool) => tool.name.startsWith('everything__')) && tools.some((tool) => tool.name.startsWith('a__')))
      break;
    if (Date.now() > end) throw new Error(`backends not running:\n${app.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, stepTimeoutMs);

afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => {})));
  app?.child.kill('SIGTERM');
  await app?.exited;
  await directory?.remove();
});

describe('reverse requests with two sessions', () => {
  it('sampling of a call reaches the session that made it, in turn', { timeout: stepTimeoutMs }, async () => {
    const before = { a: a.sampled, b: b.sampled };
    expect(
      textOf(await call(a.client, 'everything__trigger-sampling-request', { prompt: 'hi', maxTokens: 5 })),
    ).toContain('sampled by A');
    expect(textOf(await call(b.client, 'a__ask-sampling', { prompt: 'hi' }))).toBe('sampled by B');
    expect(a.sampled - before.a).toBe(1);
    expect(b.sampled - before.b).toBe(1);
  });

  it('while B waits on a long call of the same backend, A’s sampling still reaches A', {
    timeout: stepTimeoutMs,
  }, async () => {
    const before = b.sampled;
    const long = call(b.client, 'everything__trigger-long-running-operation', { duration: 3, steps: 3 });
    const sampled = await call(a.client, 'everything__trigger-sampling-request', { prompt: 'hi', maxTokens: 5 });
    expect(textOf(sampled)).toContain('sampled by A');
    await long;
    expect(b.sampled).toBe(before);
  });

  it('two sessions sampling at once each get their own answer', { timeout: stepTimeoutMs }, async () => {
    const heldA = a.holdNextSampling();
    const callA = call(a.client, 'a__ask-sampling', { prompt: 'first' });
    const holdA = await heldA;
    // A's call is waiting for A's answer; B calls the same tool meanwhile: the backend's second request is B's.
    const callB = call(b.client, 'a__ask-sampling', { prompt: 'second' });
    expect(textOf(await callB)).toBe('sampled by B');
    holdA.release();
    expect(textOf(await callA)).toBe('sampled by A');
  });
});

describe('subscriptions and tasks per session', () => {
  it('resources/updated goes to the subscribed session only', { timeout: stepTimeoutMs }, async () => {
    await a.client.subscribeResource({ uri: 'res://a/1' });
    const arrived = withDeadline(
      new Promise<void>((resolve) => {
        a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
          a.updates.push(notification.params.uri);
          resolve();
        });
      }),
      'resources/updated in A',
    );
    await call(b.client, 'a__touch', { uri: 'res://a/1' });
    await arrived;
    // B's call finished after the notification was sent; B never got it.
    expect(b.updates).toEqual([]);
    await a.client.unsubscribeResource({ uri: 'res://a/1' });
  });

  it('a task of A is not found by B', { timeout: stepTimeoutMs }, async () => {
    const created = await call(a.client, 'everything__simulate-research-query', { topic: 'python' }, { ttl: 60_000 });
    const taskId = (created.task as { taskId: string }).taskId;
    const fromB = await errorOf(b.client.request({ method: 'tasks/get', params: { taskId } }, Loose));
    expect(fromB.code).toBe(-32602);
    const listedByB = await b.client.request({ method: 'tasks/list', params: {} }, Loose);
    expect(listedByB.tasks).toEqual([]);
    const cancelled = await a.client.request({ method: 'tasks/cancel', params: { taskId } }, Loose);
    expect(cancelled.taskId).toBe(taskId);
  });

  it('an elicitation of A’s task reaches A exactly, though B called the backend later', {
    timeout: stepTimeoutMs,
  }, async () => {
    const withElicitation = { sampling: {}, elicitation: {} };
    const taskOwner = await openSession('A', withElicitation);
    const other = await openSession('B', withElicitation);
    const created = await call(
      taskOwner.client,
      'everything__simulate-research-query',
      { topic: 'python', ambiguous: true },
      { ttl: 60_000 },
    );
    const taskId = (created.task as { taskId: string }).taskId;
    const later = call(other.client, 'everything__trigger-long-running-operation', { duration: 2, steps: 2 });
    const result = await taskOwner.client.request({ method: 'tasks/result', params: { taskId } }, Loose, {
      timeout: 120_000,
    });
    await later;
    expect(JSON.stringify(result)).toContain('programming');
    expect(taskOwner.elicited).toBe(1);
    expect(other.elicited).toBe(0);
  });

  it('a session without sampling gets the backend a clear error at once', { timeout: stepTimeoutMs }, async () => {
    const c = await openSession('C', {});
    const result = await errorOf(call(c.client, 'a__ask-sampling', { prompt: 'x' }));
    expect(result.message).toMatch(/does not support sampling/);
  });
});

describe('a client no one here wrote: the MCP Inspector CLI over Streamable HTTP', () => {
  it('lists the first page of resources', { timeout: stepTimeoutMs }, async () => {
    const inspector = join(repoRoot, 'apps/stdio-server/node_modules/.bin/mcp-inspector');
    const { stdout } = await promisify(execFile)(
      inspector,
      ['--cli', `${app.url}/mcp`, '--transport', 'http', '--method', 'resources/list'],
      { cwd: repoRoot, timeout: 60_000 },
    );
    const page = JSON.parse(stdout) as { resources: Array<{ uri: string }>; nextCursor?: string };
    // everything comes first in the config; a's resources follow on a later page.
    expect(page.resources.map((resource) => resource.uri)).toContain('demo://resource/static/document/architecture.md');
    expect(typeof page.nextCursor).toBe('string');
  });
});
