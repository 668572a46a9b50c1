/**
 * The built `search-mcp-http` serves both protocol eras on `/mcp`: a 2026-07-28 client (no session, no handshake)
 * next to a 2025 client (its session, unchanged), both reaching a backend that itself speaks only 2026-07-28. Every
 * client of the era harness (1.x, 2.x legacy / auto / pinned) negotiates its era; with a token configured, proxy
 * mode's lists are `cacheScope: private` for 2026 clients (who may see what is shared depends on the caller).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  connectProtocolEraClient,
  fixtureServerPath,
  latestLegacyProtocolVersion,
  modernProtocolVersion,
  protocolEraClients,
} from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CliProcess, startCli } from './cli-process.js';
import { temporaryDirectory } from './http-test-support.js';

const modernServer = fixtureServerPath('modern-server.mjs');
const Loose = z.looseObject({});
const stepTimeoutMs = 90_000;
const token = 'eras-binary-token-0123456789abcdef';
let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: { modern: { command: process.execPath, args: [modernServer] } },
      // Anonymous callers are let in; a configured token still makes answers depend on the caller.
      auth: { allowAnonymous: true, tokens: [{ id: 'main', token }] },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'proxy']);
}, stepTimeoutMs);

afterAll(async () => {
  app?.child.kill('SIGTERM');
  await app?.exited;
  await directory?.remove();
});

async function echoThrough(request: (params: Record<string, unknown>) => Promise<unknown>): Promise<unknown> {
  return request({ name: 'modern__echo', arguments: { message: 'hi' } });
}

describe('search-mcp-http and the two protocol eras', () => {
  it('serves a 2026-07-28 client without a session', { timeout: stepTimeoutMs }, async () => {
    const client = new Sdk2Client(
      { name: 'binary-2026', version: '2' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new Sdk2HttpTransport(new URL(`${app.url}/mcp`));
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(transport.sessionId).toBeUndefined();
      const listed = (await client.request({ method: 'tools/list', params: {} }, Loose)) as {
        tools: Array<{ name: string }>;
      };
      expect(listed.tools.map((tool) => tool.name)).toContain('modern__echo');
      const result = await echoThrough((params) => client.request({ method: 'tools/call', params }, Loose));
      expect(JSON.stringify(result)).toContain('hi');
    } finally {
      await client.close();
    }
  });

  it('keeps a 2025 client on its session', { timeout: stepTimeoutMs }, async () => {
    const client = new Sdk1Client({ name: 'binary-2025', version: '1' });
    const transport = new Sdk1HttpTransport(new URL(`${app.url}/mcp`));
    await client.connect(transport);
    try {
      expect(transport.sessionId).toEqual(expect.any(String));
      const result = await echoThrough((params) => client.request({ method: 'tools/call', params }, Loose));
      expect(JSON.stringify(result)).toContain('hi');
    } finally {
      await client.close();
    }
  });
});

describe.each(protocolEraClients)('$label over HTTP, with a token', ({ kind, eraWithBothEraServer: era }) => {
  it('negotiates its era, lists and calls the 2026-only backend; 2026 lists are private', {
    timeout: stepTimeoutMs,
  }, async () => {
    const session = await connectProtocolEraClient(kind, {
      transport: 'http',
      url: new URL(`${app.url}/mcp`),
      headers: { authorization: `Bearer ${token}` },
    });
    try {
      expect(session.era).toBe(era);
      expect(session.protocolVersion).toBe(era === 'modern' ? modernProtocolVersion : latestLegacyProtocolVersion);
      const tools = await session.request('tools/list', {});
      expect((tools.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('modern__echo');
      const prompts = await session.request('prompts/list', {});
      expect((prompts.prompts as Array<{ name: string }>).map((prompt) => prompt.name)).toContain('modern__greet');
      for (const listed of [tools, prompts]) {
        if (era === 'modern') expect(listed).toMatchObject({ cacheScope: 'private' });
        else expect(listed.cacheScope).toBeUndefined();
      }
      const echoed = await session.request('tools/call', { name: 'modern__echo', arguments: { message: kind } });
      expect(JSON.stringify(echoed.content)).toContain(`Echo: ${kind}`);
    } finally {
      await session.close();
    }
  });
});
