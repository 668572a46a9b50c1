import { silentLogger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import type { BackendGateway } from '../forwarding/backend-gateway.js';
import { ResourceRoutes } from './resource-routes.js';

interface Listing {
  uris?: string[];
  templates?: string[];
  pageSize?: number;
  fails?: boolean;
  /** Answers `resources/templates/list` with an error (a server that has no templates, `-32601`). */
  noTemplates?: boolean;
}

/** The listing half of a gateway, over fixed lists (the resource methods are all `ResourceRoutes` uses). */
function gatewayOf(servers: Record<string, Listing>): { gateway: BackendGateway; listCalls: () => number } {
  let calls = 0;
  const page = <T>(items: T[], cursor: string | undefined, size: number) => {
    const start = Number(cursor ?? 0);
    const end = start + size;
    return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
  };
  const gateway = {
    serverCapabilities: (id: string) => (servers[id] ? { resources: {} } : undefined),
    listResources: async (id: string, cursor?: string) => {
      calls += 1;
      const server = servers[id] as Listing;
      if (server.fails) throw new Error('listing failed');
      const { items, nextCursor } = page(server.uris ?? [], cursor, server.pageSize ?? 100);
      return { resources: items.map((uri) => ({ uri, name: uri })), ...(nextCursor ? { nextCursor } : {}) };
    },
    listResourceTemplates: async (id: string) => {
      const server = servers[id] as Listing;
      if (server.fails) throw new Error('listing failed');
      if (server.noTemplates) throw new Error('Method not found');
      return { resourceTemplates: (server.templates ?? []).map((uriTemplate) => ({ uriTemplate, name: uriTemplate })) };
    },
  } as unknown as BackendGateway;
  return { gateway, listCalls: () => calls };
}

describe('ResourceRoutes', () => {
  it('routes to a server whose templates list fails (it has none) by the resources it lists', async () => {
    const { gateway } = gatewayOf({ a: { uris: ['modern://greeting'], noTemplates: true }, b: {} });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger });
    expect(await routes.candidates('modern://greeting', ['a', 'b'])).toEqual(['a']);
  });

  it('orders candidates: listing servers (config order), then the linker, then matching templates', async () => {
    const { gateway } = gatewayOf({
      a: { templates: ['doc://{name}'] },
      b: { uris: ['doc://x'] },
      c: { uris: ['doc://x'] },
      d: { templates: ['doc://{name}'] },
    });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger });
    routes.noteLinks('d', { content: [{ type: 'resource_link', uri: 'doc://x', name: 'x' }] });
    expect(await routes.candidates('doc://x', ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd', 'a']);
    expect(await routes.candidates('doc://x', ['a', 'c'])).toEqual(['c', 'a']);
    expect(await routes.candidates('other://y', ['a', 'b', 'c', 'd'])).toEqual([]);
  });

  it('learns links from tool results and prompt messages (links and embedded resources)', async () => {
    const { gateway } = gatewayOf({ a: {}, b: {} });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger });
    routes.noteLinks('a', { content: [{ type: 'resource', resource: { uri: 'mem://1', text: 'x' } }] });
    routes.noteLinks('b', { messages: [{ role: 'user', content: { type: 'resource_link', uri: 'mem://2' } }] });
    expect(await routes.candidates('mem://1', ['a', 'b'])).toEqual(['a']);
    expect(await routes.candidates('mem://2', ['a', 'b'])).toEqual(['b']);
  });

  it('indexes every page once, until invalidated; a server that cannot list is skipped', async () => {
    const uris = Array.from({ length: 250 }, (_, index) => `res://${index}`);
    const { gateway, listCalls } = gatewayOf({ big: { uris, pageSize: 100 }, broken: { fails: true } });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger });
    expect(await routes.candidates('res://249', ['broken', 'big'])).toEqual(['big']);
    expect(listCalls()).toBe(4);
    await routes.candidates('res://0', ['big']);
    expect(listCalls()).toBe(4);
    routes.invalidate('big');
    await routes.candidates('res://0', ['big']);
    expect(listCalls()).toBe(7);
  });

  it('names the URIs several servers list, for doctor', async () => {
    const { gateway } = gatewayOf({ a: { uris: ['shared://doc', 'a://1'] }, b: { uris: ['shared://doc'] } });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger });
    expect(await routes.duplicates(['a', 'b'])).toEqual([{ uri: 'shared://doc', serverIds: ['a', 'b'] }]);
  });

  it('forgets the oldest links beyond its limit', async () => {
    const { gateway } = gatewayOf({ a: {} });
    const routes = new ResourceRoutes(gateway, { logger: silentLogger, maxLinks: 2 });
    for (const uri of ['l://1', 'l://2', 'l://3']) routes.noteLinks('a', { content: [{ type: 'resource_link', uri }] });
    expect(await routes.candidates('l://1', ['a'])).toEqual([]);
    expect(await routes.candidates('l://3', ['a'])).toEqual(['a']);
  });
});
