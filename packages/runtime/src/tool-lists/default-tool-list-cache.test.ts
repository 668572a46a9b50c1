import type { ToolListCache } from '@search-mcp/client-manager';
import { silentLogger, type ToolDefinition } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { openToolListCache } from './default-tool-list-cache.js';

/** A host's cache that stores its lists only when flushed. */
class FlushedCache implements ToolListCache {
  readonly stored = new Map<string, readonly ToolDefinition[]>();
  private readonly pending = new Map<string, readonly ToolDefinition[]>();
  read(serverId: string): readonly ToolDefinition[] | undefined {
    return this.stored.get(serverId);
  }
  write(serverId: string, _identity: string, tools: readonly ToolDefinition[]): void {
    this.pending.set(serverId, tools);
  }
  async flush(): Promise<void> {
    for (const [serverId, tools] of this.pending) this.stored.set(serverId, tools);
    this.pending.clear();
  }
}

describe('openToolListCache', () => {
  it("flushes a host's own cache when the runtime closes, when the cache can be flushed", async () => {
    const cache = new FlushedCache();
    const opened = openToolListCache(cache, silentLogger, {});
    expect(opened.cache).toBe(cache);
    cache.write('files', 'identity', [{ name: 'read', inputSchema: { type: 'object' } }]);
    await opened.flush();
    expect(cache.stored.get('files')?.map((tool) => tool.name)).toEqual(['read']);
  });

  it('takes a cache without flush, and none when turned off', async () => {
    const plain: ToolListCache = { read: () => undefined, write: () => {} };
    await expect(openToolListCache(plain, silentLogger, {}).flush()).resolves.toBeUndefined();
    expect(openToolListCache(undefined, silentLogger, { SEARCH_MCP_TOOL_CACHE: 'off' }).cache).toBeUndefined();
    expect(openToolListCache(false, silentLogger, {}).cache).toBeUndefined();
  });
});
