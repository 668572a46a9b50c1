import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry, DisconnectedSource } from '../test/search-mcp-test-server.js';
import { settledListTtlMs } from './cache-hints.js';
import { createSearchMcpServer } from './create-search-mcp-server.js';
import type { SearchMcpServerOptions } from './search-mcp-server-options.js';
import { connectThroughEntry } from '../test/stdio-entry-link.js';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

type Negotiation = 'legacy' | { pin: '2026-07-28' };

/**
 * A 2.x SDK client in `negotiation` mode, over an in-memory link, to Search MCP served by the SDK's era-picking entry
 * (the one the stdio app uses): the factory gets the era the client opened with.
 */
async function connect(negotiation: Negotiation, overrides: Partial<SearchMcpServerOptions> = {}, config = {}) {
  const registry = createRegistry();
  // What a 2026-07-28 backend's result looks like through the client manager: its own serverInfo in `_meta`.
  registry.register({ name: 'stamped', description: 'A result stamped by a 2026 backend' }, () => ({
    content: [{ type: 'text', text: 'stamped' }],
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'backend', version: '1' }, trace: 'abc' },
  }));
  const catalog = new ToolCatalog({
    sources: [registry, new DisconnectedSource()],
    config: { mcpServers: { fs: { command: 'fs-server', description: 'Files on disk' } }, ...config },
    executor: { retries: 0 },
  });
  const eras: string[] = [];
  const client = new Client({ name: 'era-test', version: '1' }, { versionNegotiation: { mode: negotiation } });
  closers.push(
    await connectThroughEntry(client, ({ era }) => {
      eras.push(era);
      return createSearchMcpServer({ catalog, mode: 'proxy', era, ...overrides });
    }),
  );
  return { client, eras };
}

describe('one Search MCP server definition, both protocol eras', () => {
  it('serves a client pinned to 2026-07-28 without a handshake: discover, lists with cache hints, calls', async () => {
    const { client, eras } = await connect({ pin: '2026-07-28' });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(eras.at(-1)).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('search-mcp');

    const listed = (await client.request({ method: 'tools/list', params: {} })) as Record<string, unknown>;
    expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('local__echo');
    // Every server settled (none has a manager here) and nothing depends on the caller: shareable for a minute.
    expect(listed).toMatchObject({ ttlMs: settledListTtlMs, cacheScope: 'public' });

    const echoed = await client.request({
      method: 'tools/call',
      params: { name: 'local__echo', arguments: { message: 'hi' } },
    });
    expect(echoed).toMatchObject({ content: [{ type: 'text', text: 'Echo: hi' }] });
    const stamped = (await client.request(
      { method: 'tools/call', params: { name: 'local__stamped', arguments: {} } },
      z.looseObject({}),
    )) as Record<string, unknown>;
    expect(stamped._meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'search-mcp' }, trace: 'abc' });
  });

  it('marks lists private for 2026 clients when projects make answers differ per caller', async () => {
    const { client } = await connect({ pin: '2026-07-28' }, {}, { projects: { site: {} } });
    const listed = (await client.request({ method: 'tools/list', params: {} })) as Record<string, unknown>;
    expect(listed.cacheScope).toBe('private');
  });

  it('forwards progress and answers bad params with one line in the 2026 era', async () => {
    const { client } = await connect({ pin: '2026-07-28' });
    const progress: number[] = [];
    const stepped = await client.request(
      { method: 'tools/call', params: { name: 'local__steps', arguments: {} } },
      { onprogress: (update) => progress.push(update.progress), timeout: 20_000 },
    );
    expect(stepped).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(progress.length).toBeGreaterThan(0);

    const malformed = await client
      .request({ method: 'tools/call', params: { name: 42 } } as never)
      .catch((error: unknown) => error);
    expect(malformed).toBeInstanceOf(ProtocolError);
    expect((malformed as ProtocolError).code).toBe(-32602);
    expect((malformed as ProtocolError).message).toContain(
      'Invalid tools/call params: "name" must be a non-empty string',
    );
  });

  it('serves a 2.x client in legacy mode the 2025 way: handshake, no cache fields', async () => {
    const { client, eras } = await connect('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(eras).toEqual(['legacy']);
    const stamped = (await client.request(
      { method: 'tools/call', params: { name: 'local__stamped', arguments: {} } },
      z.looseObject({}),
    )) as Record<string, unknown>;
    // The backend's serverInfo does not pass for ours; its other `_meta` does.
    expect(stamped._meta).toEqual({ trace: 'abc' });
    const listed = (await client.request({ method: 'tools/list', params: {} })) as Record<string, unknown>;
    expect(listed.ttlMs).toBeUndefined();
    expect(listed.cacheScope).toBeUndefined();
    // Backend content passes unchanged: unknown block types and extra fields included (read with a loose schema: the
    // 2.x client would itself reject a block type it does not know).
    const rich = await client.request(
      { method: 'tools/call', params: { name: 'local__rich', arguments: {} } },
      z.looseObject({}),
    );
    expect(rich).toMatchObject({
      content: [
        { type: 'text', text: 'hi', vendorField: 1 },
        { type: 'x-future-block', payload: 42 },
      ],
    });
  });
});
