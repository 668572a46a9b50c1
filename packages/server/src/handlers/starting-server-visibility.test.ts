import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// A wait for a server still starting (README, "The first call of a session"; "Discovery before the servers are up")
// is only for callers that may see the server: a caller of another project gets the normal answer at once, and
// never hears the server's name. A caller that waits hears progress that only grows, the wait's and then the call's.

let manager: McpClientManager;
let client: Client;
let starts: Promise<unknown>;
const release = join(mkdtempSync(join(tmpdir(), 'starting-visibility-')), 'start');

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      alpha: {
        command: process.execPath,
        // Does not answer `initialize` until the test writes the file: it starts for as long as the test chooses.
        args: [fixtureServerPath('stdio-fixture-server.mjs'), '--wait-for-file', release],
        projects: ['alpha'],
      },
    },
  });
  manager = new McpClientManager(config, { logger: silentLogger });
  const catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
  const server = createSearchMcpServer({
    catalog,
    manager,
    mode: 'meta',
    // Longer than any test: a discovery that waited for `alpha` would hang until the test's own timeout.
    discoveryWaitMs: 600_000,
    resolveCaller: ({ meta }) => (typeof meta?.projectId === 'string' ? { projectId: meta.projectId } : {}),
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'two-projects', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const starting = new Promise<void>((resolve) => {
    const check = () => {
      if (manager.status()[0]?.state !== 'starting') return;
      manager.off('status-change', check);
      resolve();
    };
    manager.on('status-change', check);
    check();
  });
  starts = manager.startAll();
  await starting;
});

afterAll(async () => {
  await client.close();
  writeFileSync(release, '');
  await starts;
  await manager.close();
});

const text = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>)[0]?.text ?? '';
const alphaState = () => manager.status()[0]?.state;

describe('a server still starting, for a caller of another project', () => {
  it('answers a direct call at once with the normal refusal, without waiting', async () => {
    const error = (await client
      .callTool({ name: 'alpha:echo', arguments: { message: 'x' }, _meta: { projectId: 'beta' } })
      .catch((caught: unknown) => caught)) as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).not.toContain('start');
    expect(alphaState()).toBe('starting');
  });

  it('answers tool_execute at once with the normal refusal, without waiting', async () => {
    const result = await client.callTool({
      name: 'tool_execute',
      arguments: { toolKey: 'alpha:echo', arguments: { message: 'x' } },
      _meta: { projectId: 'beta' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('start');
    expect(alphaState()).toBe('starting');
  });

  it('neither waits for it in a discovery nor names it', async () => {
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: 'tool_discovery', arguments: { query: 'echo' }, _meta: { projectId: 'beta' } },
      { onprogress: (notification) => progress.push(notification) },
    );
    expect(result.isError).toBeUndefined();
    expect(text(result)).not.toContain('alpha');
    expect(progress).toEqual([]);
    expect(alphaState()).toBe('starting');
  });
});

describe('a server still starting, for a caller of its project', () => {
  it('waits for it, then runs the call, with progress that only grows', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'alpha:sleep', arguments: { ms: 350 }, _meta: { projectId: 'alpha' } },
      {
        timeout: 60_000,
        onprogress: (notification) => {
          progress.push(notification);
          // The wait's first notification: the call is waiting, so the server may now finish starting.
          if (progress.length === 1) writeFileSync(release, '');
        },
      },
    );
    expect(text(result)).toBe('slept 350');
    expect(progress[0]?.message).toBe("waiting for server 'alpha' to start (0 s)");
    const steps = progress.filter((entry) => entry.message?.startsWith('step '));
    expect(steps.length).toBeGreaterThan(0);
    const values = progress.map((entry) => entry.progress);
    for (let index = 1; index < values.length; index += 1)
      expect(values[index]).toBeGreaterThan(values[index - 1] ?? 0);
  }, 60_000);
});
