import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createRedisClusterStore } from '@search-mcp/cluster';
import { parseConfig } from '@search-mcp/shared';
import { startRedisServer } from '@search-mcp/test-kit/redis';
import { describe, expect, it } from 'vitest';
import { createSearchMcpRuntime } from './search-mcp-runtime.js';

// A replica shutting down while its Redis is away (docs/scale-out.md): the store's commands wait 5 s each for a
// reconnect, and the process may be force-exited 8 s after the signal, so the backends must not wait for the store.
const require = createRequire(import.meta.url);
const everythingManifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = Object.values((require(everythingManifest) as { bin: Record<string, string> }).bin)[0] ?? '';
const config = parseConfig({
  mcpServers: { everything: { command: process.execPath, args: [join(dirname(everythingManifest), everythingBin)] } },
  exposure: { mode: 'proxy' },
  auth: { tokens: [{ id: 'ann', token: 'ann-secret-token-0123456789' }] },
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('closing a runtime whose Redis is down', () => {
  it('stops its backends and returns within a few seconds', async () => {
    const redis = await startRedisServer();
    const store = await createRedisClusterStore({ url: redis.url });
    const runtime = createSearchMcpRuntime({
      config,
      clusterStore: store,
      persistUsage: false,
      pinStore: false,
      toolListCache: false,
    });
    try {
      const [status] = await runtime.startBackends();
      const pid = status?.pid;
      expect(pid).toBeTypeOf('number');
      // A running task (a record, a watch and a heartbeat in the store) and a call counted for the shared usage.
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await runtime.createServer({ resolveCaller: () => ({ tokenId: 'ann' }) }).connect(serverTransport);
      const client = new Client({ name: 'closing', version: '1' });
      await client.connect(clientTransport);
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'everything__simulate-research-query', arguments: { topic: 'x' }, task: { ttl: 60_000 } },
        } as never,
        ResultSchema.passthrough(),
      );
      expect(created.task).toBeDefined();

      await redis.stopProcess();
      const started = Date.now();
      await runtime.close();
      expect(Date.now() - started).toBeLessThan(4000);
      expect(isRunning(pid as number)).toBe(false);
    } finally {
      await runtime.close();
      await store.close();
      await redis.stop();
    }
  }, 60_000);
});
