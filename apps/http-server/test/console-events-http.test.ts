/**
 * The console's event log through the built `search-mcp-http`: a saved edit of the config file reaches
 * `GET /v1/activity/stream` as `event: reload` (what changed) and the new server's start as `event: server`; an edit
 * that cannot be parsed as `event: reload` of kind `reload-failed`; both are kept in `GET /v1/events`. The console's
 * files are served at /ui/ from the package's dist/console.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { everythingEntry, fixtureServer, mainToken, request, temporaryDirectory } from './http-test-support.js';

const deadlineMs = 30_000;

let directory: { path: string; remove: () => Promise<void> };
let configFile: string;
let app: CliProcess;

function configText(withEverything: boolean): string {
  return JSON.stringify({
    mcpServers: {
      kept: { command: process.execPath, args: [fixtureServer] },
      ...(withEverything ? { everything: { command: process.execPath, args: [everythingEntry] } } : {}),
    },
    auth: { tokens: [{ id: 'main', token: mainToken }] },
  });
}

/**
 * Reads Server-Sent Events in the background; `waitFor(name, match)` resolves with the data of the first event of that
 * name that matches, received before or after the call (a server's start may be streamed before the reload that
 * started it is reported).
 */
async function openStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/activity/stream`, {
    headers: { authorization: `Bearer ${mainToken}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  const received: Array<{ name: string; data: Record<string, unknown> }> = [];
  const waiters = new Set<() => void>();
  // The stream is open once its first comment arrives.
  let buffered = (await reader.read()).value ?? '';
  void (async () => {
    for (;;) {
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop() ?? '';
      for (const block of blocks) {
        const lines = block.split('\n');
        const name = lines.find((line) => line.startsWith('event: '))?.slice(7);
        const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
        if (name !== undefined && data !== undefined) {
          received.push({ name, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
      for (const waiter of waiters) waiter();
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      buffered += chunk.value;
    }
  })();
  const waitFor = (name: string, match: (data: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = received.find((event) => event.name === name && match(event.data));
        if (!found) return;
        waiters.delete(check);
        clearTimeout(deadline);
        resolve(found.data);
      };
      const deadline = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no event ${name} within ${deadlineMs} ms:\n${app.stderr()}`));
      }, deadlineMs);
      waiters.add(check);
      check();
    });
  return { waitFor, close: () => controller.abort() };
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(configFile, configText(false));
  // The test environment turns hot reload off by default (SEARCH_MCP_WATCH=0); this test is about it.
  app = await startCli(['--config', configFile, '--port', '0'], { ...process.env, SEARCH_MCP_WATCH: '1' });
  await app.waitForStderr('watching the config file');
}, 60_000);

afterAll(async () => {
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await directory?.remove();
});

describe('the console over the built search-mcp-http', () => {
  it('serves the console files at /ui/', async () => {
    const page = await fetch(`${app.url}/ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
  });

  it('streams and keeps a hot reload, the started server, and a failed reload', async () => {
    const stream = await openStream(app.url);
    try {
      await writeFile(configFile, configText(true));
      expect(await stream.waitFor('reload', (data) => data.kind === 'reload')).toMatchObject({
        kind: 'reload',
        servers: { added: ['everything'], removed: [] },
      });
      expect(
        await stream.waitFor('server', (data) => data.id === 'everything' && data.state === 'running'),
      ).not.toHaveProperty('pid');

      const failed = stream.waitFor('reload', (data) => data.kind === 'reload-failed');
      await writeFile(configFile, '{ "mcpServers": ');
      expect((await failed).error).toMatch(/invalid JSON/);
    } finally {
      stream.close();
    }
    const events = await request(app.url, '/v1/events');
    const kinds = ((events.body?.events ?? []) as Array<{ kind: string }>).map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['reload', 'server-state', 'reload-failed']));
  }, 90_000);
});
