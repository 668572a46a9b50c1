import type { ChildProcess } from 'node:child_process';
import { startRawHttpFixture } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRecordingLogger } from '../../test/test-support.js';
import {
  createModernBackendClient,
  createModernHttpTransport,
  type ModernBackendClient,
} from './modern/modern-backend-client.js';

/**
 * SEP-2243 screening of a 2026-07-28 backend's tool list over Streamable HTTP, through the 2.x client and the
 * hand-written fixture whose `break-marks` tool changes the list: each complete listing decides which tools' headers
 * are sent, a tool whose marks broke or that the backend dropped sends none, and a tool left out is warned about once
 * per reason, not on every listing.
 */
const children: ChildProcess[] = [];
const clients: ModernBackendClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const child of children.splice(0)) child.kill();
});

const anyResult = z.looseObject({});
const toolPage = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) });
const callResult = z.looseObject({ content: z.array(z.looseObject({ text: z.string() })) });

async function connected(...args: string[]) {
  const { child, url } = await startRawHttpFixture('--modern', '--header-tools', ...args);
  children.push(child);
  const { logger, records } = createRecordingLogger();
  const client = createModernBackendClient({ clientInfo: { name: 'test', version: '1.0.0' }, logger, onClose() {} });
  clients.push(client);
  await client.connect(createModernHttpTransport(new URL(url), { headers: {} }));
  const listed = async () => {
    const page = await client.request({ method: 'tools/list', params: {} }, toolPage);
    return page.tools.map((tool) => tool.name);
  };
  const secondPage = async () => {
    const page = await client.request({ method: 'tools/list', params: { cursor: '2' } }, toolPage);
    return page.tools.map((tool) => tool.name);
  };
  const mirrored = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, callResult);
    return JSON.parse(result.content[0]?.text ?? '') as Record<string, string>;
  };
  const warnings = () =>
    records
      .filter((record) => record.level === 'warn')
      .map((record) => `${record.fields.tool}: ${record.fields.reason}`);
  return { client, listed, secondPage, mirrored, warnings };
}

describe('SEP-2243 tool screening over re-listings', () => {
  it('warns once per tool and reason, and sends no headers for a tool whose marks broke or that was dropped', async () => {
    const { client, listed, mirrored, warnings } = await connected();
    expect(await listed()).toEqual(expect.arrayContaining(['mirrored', 'mirrored-too']));
    expect(await listed()).not.toContain('bad-mark');
    expect(warnings()).toEqual([expect.stringMatching(/^bad-mark: /)]);
    expect(await mirrored('mirrored-too', { region: 'eu' })).toEqual({ 'mcp-param-region': 'eu' });

    await client.request({ method: 'tools/call', params: { name: 'break-marks', arguments: {} } }, anyResult);
    const after = await listed();
    expect(after).not.toContain('mirrored');
    expect(after).not.toContain('mirrored-too');
    await listed();
    expect(warnings()).toEqual([expect.stringMatching(/^bad-mark: /), expect.stringMatching(/^mirrored: /)]);
    // Called by name all the same: its old declarations are gone with its valid marks, the dropped tool's with it.
    expect(await mirrored('mirrored', { region: 'eu', priority: 1 })).toEqual({});
    expect(await mirrored('mirrored-too', { region: 'eu' })).toEqual({});
  });

  it('takes a paged listing as one: a tool dropped is forgotten once its last page came', async () => {
    const { client, listed, secondPage, mirrored, warnings } = await connected('--paged-tools');
    expect(await listed()).toContain('mirrored');
    expect(await secondPage()).toContain('mirrored-too');
    expect(await mirrored('mirrored-too', { region: 'eu' })).toEqual({ 'mcp-param-region': 'eu' });
    await listed();
    await secondPage();
    expect(warnings()).toEqual([expect.stringMatching(/^bad-mark: /)]);

    await client.request({ method: 'tools/call', params: { name: 'break-marks', arguments: {} } }, anyResult);
    expect(await listed()).not.toContain('mirrored');
    // A tool whose marks broke loses its declarations at once, on the page that shows it.
    expect(await mirrored('mirrored', { region: 'eu', priority: 1 })).toEqual({});
    expect(await secondPage()).not.toContain('mirrored-too');
    expect(await mirrored('mirrored-too', { region: 'eu' })).toEqual({});
    expect(warnings()).toEqual([expect.stringMatching(/^bad-mark: /), expect.stringMatching(/^mirrored: /)]);
  });
});
