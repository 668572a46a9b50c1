import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { descendantsOf, isProcessRunning } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { commandOf, startCli } from '../../test/cli-process.js';
import {
  eventually,
  mainToken,
  mcpClient,
  request,
  slowServer,
  temporaryDirectory,
} from '../../test/http-test-support.js';

let directory: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  directory = await temporaryDirectory();
});

afterAll(async () => {
  await directory.remove();
});

// The three signals run side by side, each with a process and a config of its own: most of a run is waiting (the
// backends' start, the grace period, the escalation for the stubborn backend), and the waits overlap.
describe('search-mcp-http on a signal', () => {
  it.concurrent.for(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    '%s: answers the calls in flight (REST 503, MCP error), turns new requests away, and leaves no backend',
    { timeout: 120_000 },
    async (signal, { expect }) => {
      const events = join(directory.path, `${signal}.events`);
      const config = join(directory.path, `${signal}.json`);
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_EVENTS: events } },
            // Ignores SIGTERM and stdin EOF: only the runtime's escalation ends it.
            stubborn: { command: process.execPath, args: [slowServer, '--stubborn'] },
          },
          auth: { tokens: [{ id: 'main', token: mainToken }] },
        }),
      );
      const cli = await startCli(['--config', config, '--port', '0', '--shutdown-grace-ms', '1500']);
      const backendSaw = (line: string) =>
        eventually(async () => ((await readFile(events, 'utf8').catch(() => '')).includes(line) ? true : undefined));
      // Both backends are up once their tools are listed.
      await eventually(async () => {
        const listed = await request(cli.url, '/v1/tools');
        const servers = new Set((listed.body?.tools ?? []).map((tool: { serverName: string }) => tool.serverName));
        return servers.has('slow') && servers.has('stubborn') ? true : undefined;
      }, 60_000);
      const backends = descendantsOf(cli.child.pid as number).map((row) => row.pid);
      expect(backends.length).toBeGreaterThanOrEqual(2);

      const { client } = await mcpClient(cli.url);
      const rest = request(cli.url, '/v1/tools/call', { body: { name: 'slow:wait', parameters: { ms: 30_000 } } });
      let mcpStarted: () => void = () => {};
      const mcpInFlight = new Promise<void>((resolve) => {
        mcpStarted = resolve;
      });
      const mcp = client
        .callTool(
          { name: 'tool_execute', arguments: { toolKey: 'stubborn:wait', arguments: { ms: 30_001 } } },
          undefined,
          { onprogress: () => mcpStarted() },
        )
        .catch((error: unknown) => error);
      await backendSaw('started 30000');
      await mcpInFlight;

      cli.child.kill(signal);
      await cli.waitForStderr(`"reason":"${signal}"`);
      // During the grace period (calls in flight may still finish) a new request is turned away.
      const late = await request(cli.url, '/v1/tools');
      expect([late.status, late.body?.code]).toEqual([503, 'SHUTTING_DOWN']);

      const answer = await rest;
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ success: false, code: 'SHUTTING_DOWN' });
      expect(await mcp).toMatchObject({ code: -32000, message: expect.stringMatching(/shutting down/) });
      expect(await cli.exited).toEqual([0, null]);
      // The backends' watchdogs end whatever is left the moment this process is gone; give them a moment to do it.
      const left = await eventually(async () => {
        const alive = backends.filter(isProcessRunning);
        return alive.length === 0 ? alive : undefined;
      }, 5000).catch(() => backends.filter(isProcessRunning).map((pid) => `${pid}: ${commandOf(pid)}`));
      expect(left).toEqual([]);
    },
  );
});
