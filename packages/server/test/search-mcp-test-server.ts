import { EventEmitter } from 'node:events';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog, ToolRegistry } from '@search-mcp/catalog';
import {
  ServerNotRunningError,
  type ServerStatus,
  type ToolCallResult,
  type ToolInfo,
  type ToolSource,
} from '@search-mcp/shared';
import { afterEach } from 'vitest';
import { z } from 'zod';
import type { AuditRecord } from '../src/audit/audit-record.js';
import { createSearchMcpServer } from '../src/create-search-mcp-server.js';
import type { SearchMcpServerOptions } from '../src/search-mcp-server-options.js';

/**
 * A real Search MCP server over an in-memory link to a real SDK client, with host tools (echo, a stepping tool with
 * progress, a tool that never answers, rich content) and a server `fs` that is never connected.
 */
export const Loose = z.looseObject({});
export const longName = `a${'-very-long-tool-name'.repeat(3)}`;

export class DisconnectedSource implements ToolSource {
  readonly toolsRevision = 0;
  readonly serverIds = ['fs'];
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    throw new ServerNotRunningError({ serverId });
  }
}

export class FakeManager extends EventEmitter {
  states: ServerStatus[] = [];
  status(): ServerStatus[] {
    return this.states;
  }
}

export interface RegistryHooks {
  /** The `steps` tool saw its signal aborted before this step. */
  onStepsCancelled?: (step: number) => void;
}

export function createRegistry(hooks: RegistryHooks = {}): ToolRegistry {
  // Long enough for a progress gap on a busy machine (progress resets it); the 'hang' tool still times out.
  const registry = new ToolRegistry({ description: 'Host tools', timeoutMs: 2000 });
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

export async function connect(
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
  // A 2025-era client (the handshake, list_changed on the session): what these tests check.
  const client = new Client({ name: 'test-client', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return { client, registry, records, server, catalog };
}

/** Resolves when `emitter` gets a listener for `event`. */
export function listenerAdded(emitter: EventEmitter, event: string): Promise<void> {
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
export function nextCall<T extends object, K extends keyof T>(object: T, method: K): Promise<unknown> {
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

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, Loose)) as ToolCallResult;
}

export function textOf(result: ToolCallResult): string {
  return (result.content?.[0] as { text?: string } | undefined)?.text ?? '';
}

// Every client a test connected is closed after it.
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
