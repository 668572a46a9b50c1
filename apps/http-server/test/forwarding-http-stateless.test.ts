/**
 * Issue 9 through the built `search-mcp-http --stateless`: no session outlives a request, so nothing is pushed
 * (no subscriptions, no logging announced) and a backend's reverse request is refused at once, never left hanging.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CliProcess, startCli } from './cli-process.js';
import { temporaryDirectory } from './http-test-support.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const stepTimeoutMs = 90_000;
let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;
let client: Client;
let sampled = 0;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: { a: { command: process.execPath, args: [featureServer, '--name', 'a', '--resources', '2'] } },
      auth: { allowAnonymous: true },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'proxy', '--stateless']);
  client = new Client({ name: 'stateless', version: '1' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    sampled += 1;
    return { model: 'm', role: 'assistant', content: { type: 'text', text: 'never' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
}, stepTimeoutMs);

afterAll(async () => {
  await client?.close().catch(() => {});
  app?.child.kill('SIGTERM');
  await app?.exited;
  await directory?.remove();
});

describe('stateless Streamable HTTP', () => {
  it('announces no subscriptions and no logging', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toEqual({ listChanged: true });
    expect(capabilities?.logging).toBeUndefined();
    expect(capabilities?.prompts).toEqual({ listChanged: true });
  });

  it('serves resources, and refuses a backend’s sampling at once', { timeout: stepTimeoutMs }, async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['res://a/0', 'res://a/1']);
    const error = await client
      .request({ method: 'tools/call', params: { name: 'a__ask-sampling', arguments: {} } }, z.looseObject({}))
      .then(
        () => undefined,
        (failure: Error) => failure,
      );
    expect(error?.message).toMatch(/does not support sampling/);
    expect(sampled).toBe(0);
  });
});
