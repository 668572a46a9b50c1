import type { AuditRecord } from '@search-mcp/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Running, startApp } from '../../test/http-test-support.js';

/**
 * Who sees what in `GET /v1/stats` (docs/console.md, "Usage statistics") for a server that is not connected: the
 * fallback over the config. The `(other)` series is an admin's only; a tool `toolPermissions` turns off is nobody's.
 */
let server: Running;

function call(toolKey: string): AuditRecord {
  return {
    ts: new Date().toISOString(),
    requestId: toolKey,
    event: 'rest',
    toolKey,
    serverId: 'files',
    durationMs: 5,
    outcome: 'ok',
  };
}

beforeAll(async () => {
  server = await startApp({
    backends: 'none',
    config: {
      mcpServers: {
        files: { command: process.execPath, args: ['-e', ''], enabled: false, toolPermissions: { secret: false } },
      },
    },
    app: { allowAnonymous: true },
  });
  const usage = server.runtime.usage;
  usage.record(call('files:read'));
  usage.record(call('files:secret'));
  // Past the series cap: the later tools are counted in `(other)`.
  for (let index = 0; index < 2_000; index += 1) usage.record(call(`files:tool-${index}`));
});

afterAll(async () => {
  await server.close();
});

async function toolKeys(token?: string | null): Promise<string[]> {
  const response = await request(server.url, '/v1/stats?window=1h', token === undefined ? {} : { token });
  expect(response.status).toBe(200);
  return ((response.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey);
}

describe('GET /v1/stats for a server that is not connected', () => {
  it('shows an admin the (other) series, never a tool toolPermissions turns off', async () => {
    const keys = await toolKeys();
    expect(keys).toContain('files:read');
    expect(keys).toContain('(other)');
    expect(keys).not.toContain('files:secret');
  });

  it('shows an anonymous caller no (other) series', async () => {
    const keys = await toolKeys(null);
    expect(keys).toContain('files:read');
    expect(keys).not.toContain('(other)');
    expect(keys).not.toContain('files:secret');
  });
});
