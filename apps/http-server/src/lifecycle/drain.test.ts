import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../test/cli-process.js';
import { eventually, mainToken, request, slowServer, temporaryDirectory } from '../../test/http-test-support.js';

let directory: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  directory = await temporaryDirectory();
});

afterAll(async () => {
  await directory.remove();
});

// A process no probe has asked skips the drain and turns new requests away at once: shutdown-signals.test.ts.
describe('search-mcp-http on SIGTERM behind a load balancer (its /readyz probed)', () => {
  it('answers /readyz 503 at once, keeps serving during the drain, lets the call in flight finish, then exits', async () => {
    const events = join(directory.path, 'drain.events');
    const config = join(directory.path, 'drain.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_EVENTS: events } } },
        auth: { tokens: [{ id: 'main', token: mainToken }] },
      }),
    );
    const cli = await startCli([
      '--config',
      config,
      '--port',
      '0',
      '--drain-ms',
      '4000',
      '--shutdown-grace-ms',
      '3000',
    ]);
    await eventually(async () => ((await request(cli.url, '/v1/tools')).body?.tools?.length ? true : undefined));
    // The probes need no token.
    expect(await request(cli.url, '/healthz', { token: null })).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await request(cli.url, '/readyz', { token: null })).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });

    const call = request(cli.url, '/v1/tools/call', { body: { name: 'slow:wait', parameters: { ms: 1500 } } });
    await eventually(async () =>
      (await readFile(events, 'utf8').catch(() => '')).includes('started 1500') ? true : undefined,
    );
    cli.child.kill('SIGTERM');
    await cli.waitForStderr('draining');

    expect(await request(cli.url, '/readyz', { token: null })).toMatchObject({
      status: 503,
      body: { status: 'not-ready', reason: 'draining' },
    });
    // Still alive, and still serving: a request the balancer sent before it noticed is answered, not refused, and its
    // connection is closed after the answer so the client's next request goes through the balancer again.
    expect(await request(cli.url, '/healthz', { token: null })).toMatchObject({ status: 200 });
    const late = await request(cli.url, '/v1/tools');
    expect(late.status).toBe(200);
    expect(late.body?.tools?.length).toBeGreaterThan(0);

    expect(await call).toMatchObject({ status: 200, body: { success: true } });
    expect(await cli.exited).toEqual([0, null]);
  });
});
