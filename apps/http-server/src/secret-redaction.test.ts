import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CliProcess, startCli } from '../test/cli-process.js';
import { startEchoAuthorizationServer } from '../test/echo-authorization-server.js';
import { eventually, mcpClient, request, slowServer, temporaryDirectory } from '../test/http-test-support.js';

/** One canary per secret-bearing field of the config (packages/shared/README.md, "Secrets"); none may be printed. */
const canaries = {
  env: 'canary-env-value-7f3a9c1e5b',
  header: 'canary-header-value-2d8e4f6a0c',
  token: 'canary-access-token-9b1c3e5d7f-0123456789',
  apiKey: 'canary-cloud-api-key-4a6c8e0b2d',
};

function leaked(text: string): string[] {
  return Object.entries(canaries)
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
}

describe('secrets never reach a response body, the log or the audit', () => {
  let directory: { path: string; remove: () => Promise<void> };
  let remote: { url: string; close: () => Promise<void> };
  let cli: CliProcess;
  let auditFile: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    directory = await temporaryDirectory();
    remote = await startEchoAuthorizationServer();
    auditFile = join(directory.path, 'audit.jsonl');
    const config = join(directory.path, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_SECRET: canaries.env } },
          remote: { type: 'http', url: remote.url, headers: { Authorization: `Bearer ${canaries.header}` } },
        },
        search: { strategy: 'bm25', cloud: { url: 'http://127.0.0.1:9', apiKey: canaries.apiKey } },
        auth: { tokens: [{ id: 'main', token: canaries.token }] },
        audit: { file: auditFile },
      }),
    );
    cli = await startCli(['--config', config, '--port', '0', '--log-level', 'debug']);
    await eventually(async () => {
      const listed = await request(cli.url, '/v1/tools', { token: canaries.token });
      const servers = new Set((listed.body?.tools ?? []).map((tool: { serverName: string }) => tool.serverName));
      return servers.has('slow') && servers.has('remote') ? true : undefined;
    });
  });

  afterAll(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
    await remote.close();
    await directory.remove();
  });

  it('masks what backends echo in REST answers', async () => {
    const calls = ['remote:whoami', 'remote:http-error', 'slow:leak', 'slow:leak-result'];
    for (const name of calls) {
      const response = await fetch(`${cli.url}/v1/tools/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${canaries.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, parameters: {} }),
      });
      const text = await response.text();
      bodies.push(text);
      expect([name, leaked(text)]).toEqual([name, []]);
      // The backend's message is still there, with the secret masked.
      expect([name, text]).toEqual([name, expect.stringContaining('***')]);
    }
  });

  it('masks what backends echo over /mcp (tool_execute and direct calls)', async () => {
    const { client } = await mcpClient(cli.url, { authorization: `Bearer ${canaries.token}` });
    const answers: unknown[] = [];
    for (const toolKey of ['remote:whoami', 'remote:http-error', 'slow:leak', 'slow:leak-result']) {
      answers.push(await client.callTool({ name: 'tool_execute', arguments: { toolKey, arguments: {} } }));
      answers.push(
        await client
          .request({ method: 'tools/call', params: { name: toolKey, arguments: {} } }, z.looseObject({}))
          .catch((error: unknown) => ({ message: (error as Error).message })),
      );
    }
    await client.close();
    const text = JSON.stringify(answers);
    bodies.push(text);
    expect(leaked(text)).toEqual([]);
    expect(text).toContain('***');
  });

  it('keeps every canary out of the log (debug level) and the audit', async () => {
    const audit = await eventually(async () => {
      const text = await readFile(auditFile, 'utf8').catch(() => '');
      return text.includes('slow:leak-result') ? text : undefined;
    });
    expect(leaked(audit)).toEqual([]);
    // The slow server printed its credential on start, and the remote's errors were logged: all masked.
    await cli.waitForStderr('***');
    expect(leaked(cli.stderr())).toEqual([]);
    expect(leaked(bodies.join('\n'))).toEqual([]);
  });
});
