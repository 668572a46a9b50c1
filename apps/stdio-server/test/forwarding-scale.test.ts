/**
 * Issue 9 at scale and under misbehaviour, through the built `search-mcp` over stdio: 10,000 resources paged
 * completely by our cursors and the last one read; a project-scoped server's resources invisible to other callers; a
 * backend flooding log messages is cut to a burst with a drop notice, and calls still answer.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  eventually,
  type ForwardingClient,
  featureServer,
  forwardingConfig,
  startForwardingClient,
  textOf,
  waitForServers,
} from './forwarding-support.js';

const stepTimeoutMs = 120_000;
let config: Awaited<ReturnType<typeof forwardingConfig>>;
let session: ForwardingClient;

beforeAll(async () => {
  config = await forwardingConfig();
  const path = join(config.directory, 'scale.json');
  const node = process.execPath;
  await writeFile(
    path,
    JSON.stringify({
      mcpServers: {
        big: { command: node, args: [featureServer, '--name', 'big', '--resources', '10000', '--page-size', '500'] },
        scoped: { command: node, args: [featureServer, '--name', 'scoped', '--resources', '2'], projects: ['alpha'] },
      },
      exposure: { mode: 'proxy' },
    }),
  );
  session = await startForwardingClient(['--config', path]);
  await waitForServers(session.client, ['big']);
}, stepTimeoutMs);

afterAll(async () => {
  await session?.close();
  await config?.remove();
});

describe('resources at scale', () => {
  it('pages through 10,000 resources completely and reads the last one', { timeout: stepTimeoutMs }, async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await session.client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris.length).toBe(10_000);
    expect(new Set(uris).size).toBe(10_000);
    expect(uris.every((uri) => uri.startsWith('res://big/'))).toBe(true);
    const last = await session.client.readResource({ uri: 'res://big/9999' });
    expect(last.contents[0]).toMatchObject({ text: 'big read res://big/9999' });
  });

  it('hides a project-scoped server from callers of other projects', { timeout: stepTimeoutMs }, async () => {
    // Its own project reads it (once it runs) …
    const alpha = { _meta: { projectId: 'alpha' } };
    const read = await eventually(
      () => session.client.readResource({ uri: 'res://scoped/0', ...alpha }),
      'scoped readable for project alpha',
    );
    expect(read.contents[0]).toMatchObject({ text: 'scoped read res://scoped/0' });
    // … a caller of no project cannot, and does not see it listed.
    await expect(session.client.readResource({ uri: 'res://scoped/0' })).rejects.toMatchObject({ code: -32602 });
    const { resources } = await session.client.listResources();
    expect(resources.some((resource) => resource.uri.startsWith('res://scoped/'))).toBe(false);
  });
});

describe('a backend flooding log messages', () => {
  it('is cut to a burst with a drop notice, and calls still answer', { timeout: stepTimeoutMs }, async () => {
    expect(textOf(await callTool(session.client, 'big__flood', { count: 10_000 }))).toBe('flooded');
    const notice = await session.nextLog((params) => /dropped \d+ log messages/.test(String(params.data)));
    expect(notice.logger).toBe('big');
    const relayed = session.logs.filter((params) => String(params.data).startsWith('flood ')).length;
    expect(relayed).toBeLessThan(10_000);
    expect(textOf(await callTool(session.client, 'big__current-level'))).toBe('unset');
  });
});
