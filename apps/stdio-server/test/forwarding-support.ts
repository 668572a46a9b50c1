/**
 * What the forwarding tests share: a config with server-everything, server-filesystem and two feature fixtures
 * (`a`, `b`), a real SDK client over stdio to the built binary with sampling, elicitation and roots handlers, and
 * waits with deadlines (never sleeps).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fixtureServerPath } from '@search-mcp/test-kit';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const repoRoot = resolve(here, '../../..');
export const cli = resolve(here, '../dist/cli.js');
export const featureServer = fixtureServerPath('feature-server.mjs');
export const Loose = z.looseObject({});
/** Generous: the suite runs on 2 busy cores in CI. */
export const deadlineMs = 30_000;

function binOf(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> | string };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : (Object.values(manifest.bin)[0] as string);
  return join(dirname(manifestPath), bin);
}
export const everythingEntry = binOf('@modelcontextprotocol/server-everything');
export const filesystemEntry = binOf('@modelcontextprotocol/server-filesystem');

export const longPrompt = `p${'-a-very-long-prompt-name'.repeat(3)}`;

/** A temporary folder with the standard forwarding config (and `files/`, `files/sub`, `files/other`). */
export async function forwardingConfig(extra: Record<string, unknown> = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-forwarding-'));
  const files = join(directory, 'files');
  await mkdir(join(files, 'sub'), { recursive: true });
  await mkdir(join(files, 'other'), { recursive: true });
  const node = process.execPath;
  const config = {
    mcpServers: {
      everything: { command: node, args: [everythingEntry] },
      fs: { command: node, args: [filesystemEntry, files] },
      a: {
        command: node,
        args: [
          featureServer,
          '--name',
          'a',
          '--resources',
          '3',
          '--shared-uri',
          'shared://doc',
          '--template',
          'a://item/{id}',
          '--prompt',
          'greet',
          '--prompt',
          longPrompt,
          '--instructions',
          'Feature server a.',
        ],
      },
      b: { command: node, args: [featureServer, '--name', 'b', '--shared-uri', 'shared://doc', '--prompt', 'greet'] },
    },
    ...extra,
  };
  const path = join(directory, 'config.json');
  await writeFile(path, JSON.stringify(config));
  return { directory, files, path, remove: () => rm(directory, { recursive: true, force: true }) };
}

export function withDeadline<T>(promise: Promise<T>, what: string, ms = deadlineMs): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Retries `check` (each try an event-free request) until it passes or the deadline ends. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const end = Date.now() + deadlineMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not within ${deadlineMs} ms${last ? ` (${String(last)})` : ''}`);
}

export interface ForwardingClient {
  client: Client;
  stderr: string[];
  samplingRequests: Array<Record<string, unknown>>;
  elicitationRequests: Array<Record<string, unknown>>;
  /** The roots the client answers with; change and call `client.sendRootsListChanged()`. */
  roots: Array<{ uri: string; name?: string }>;
  logs: Array<Record<string, unknown>>;
  /** Resolves with the first log message (from now on, or already received) that `matches`. */
  nextLog(matches: (params: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A real SDK client starting the built binary, answering sampling/elicitation/roots as a client app would. */
export async function startForwardingClient(
  args: string[],
  options: { capabilities?: ClientCapabilities; label?: string; env?: Record<string, string> } = {},
): Promise<ForwardingClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, ...args],
    cwd: repoRoot,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...options.env },
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const capabilities = options.capabilities ?? {
    sampling: {},
    elicitation: { form: {}, url: {} },
    roots: { listChanged: true },
  };
  const client = new Client({ name: 'forwarding-test', version: '1' }, { capabilities });
  const label = options.label ?? 'stdio-client';
  const state: ForwardingClient = {
    client,
    stderr,
    samplingRequests: [],
    elicitationRequests: [],
    roots: [],
    logs: [],
    nextLog: (matches) => {
      const seen = state.logs.find(matches);
      if (seen) return Promise.resolve(seen);
      return withDeadline(
        new Promise((resolve) => {
          logWaiters.push({ matches, resolve });
        }),
        'log message',
      );
    },
    close: () => client.close(),
  };
  const logWaiters: Array<{
    matches: (params: Record<string, unknown>) => boolean;
    resolve: (params: Record<string, unknown>) => void;
  }> = [];
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      state.samplingRequests.push(request.params as Record<string, unknown>);
      return { model: 'test-model', role: 'assistant', content: { type: 'text', text: `sampled by ${label}` } };
    });
  }
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      state.elicitationRequests.push(request.params as Record<string, unknown>);
      if (request.params.mode === 'url') return { action: 'accept' };
      return { action: 'accept', content: { name: label } };
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: state.roots }));
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
    const params = notification.params as Record<string, unknown>;
    state.logs.push(params);
    for (const waiter of [...logWaiters]) {
      if (!waiter.matches(params)) continue;
      logWaiters.splice(logWaiters.indexOf(waiter), 1);
      waiter.resolve(params);
    }
  });
  await client.connect(transport);
  return state;
}

/** `tools/call` as a raw request: the result unchanged, `_meta` and `task` as given. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  extra: {
    meta?: Record<string, unknown>;
    task?: Record<string, unknown>;
    onprogress?: (progress: unknown) => void;
  } = {},
) {
  return (await client.request(
    {
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        ...(extra.meta ? { _meta: extra.meta } : {}),
        ...(extra.task ? { task: extra.task } : {}),
      },
    },
    Loose,
    { timeout: 120_000, ...(extra.onprogress ? { onprogress: extra.onprogress } : {}) },
  )) as Record<string, unknown> & { content?: Array<{ type: string; text?: string; uri?: string }>; isError?: boolean };
}

export function textOf(result: { content?: Array<{ text?: string }> }): string {
  return (result.content ?? []).map((block) => block.text ?? '').join('\n');
}

/** Waits until every server of the config is running (tools listed), through `tools/list` in proxy mode. */
export async function waitForServers(client: Client, names: string[]): Promise<void> {
  await eventually(
    async () => {
      const { tools } = await client.listTools();
      return names.every((name) => tools.some((tool) => tool.name.startsWith(`${name}__`))) ? true : undefined;
    },
    `servers ${names.join(', ')} running`,
  );
}
