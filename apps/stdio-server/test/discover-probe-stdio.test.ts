/**
 * The protocol era of a stdio connection opened with `server/discover`, through the built binary and a bare JSON-RPC
 * peer (what the official conformance suite sends; no SDK client would send a request without its envelope). The
 * SDK's stdio entry leaves the era open after a 2026-07-28 discover so that a dual-era client can still fall back to
 * `initialize`; a request without the envelope must not be taken for that fallback (issue 19). The opposite case, a
 * 2025 client whose first message is `initialize`, stays 2025.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modernRequestMeta, type RawStdioPeer, startRawStdioPeer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, deadlineMs, featureServer } from './forwarding-support.js';

let directory: string;
let configPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-discover-probe-'));
  configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: { fixture: { command: process.execPath, args: [featureServer] } },
      exposure: { mode: 'proxy', names: 'original' },
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function startPeer(): RawStdioPeer {
  return startRawStdioPeer({
    command: process.execPath,
    args: [cli, 'serve', '--config', configPath, '--no-watch'],
    env: { HOME: directory },
  });
}

const meta = modernRequestMeta('2026-07-28');
const missingEnvelope = 'missing the required _meta envelope';

describe('a stdio connection opened with an enveloped server/discover', () => {
  it('refuses a request without the envelope -32602 and stays 2026-07-28', async () => {
    const peer = startPeer();
    try {
      const discovered = await peer.request('server/discover', { _meta: meta }, deadlineMs);
      expect(discovered.result).toMatchObject({ supportedVersions: ['2026-07-28'] });
      const bare = await peer.request('server/discover', {}, deadlineMs);
      expect(bare.error).toMatchObject({ code: -32602, message: expect.stringContaining(missingEnvelope) });
      const listed = await peer.request('resources/list', { _meta: meta }, deadlineMs);
      expect(listed.result).toMatchObject({ resultType: 'complete', cacheScope: expect.any(String) });
      expect(listed.result?.ttlMs).toEqual(expect.any(Number));
      // Pinned 2026-07-28 now: the same bare request is refused by the instance itself, and a late 2025 handshake too.
      const bareAgain = await peer.request('tools/list', {}, deadlineMs);
      expect(bareAgain.error).toMatchObject({ code: -32602, message: expect.stringContaining(missingEnvelope) });
      const initialize = await peer.request(
        'initialize',
        { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
        deadlineMs,
      );
      expect(initialize.error?.code).toBe(-32022);
      expect(peer.noise).toEqual([]);
    } finally {
      await peer.close(deadlineMs);
    }
  });

  it('still serves the 2025 handshake a dual-era client falls back to after its probe', async () => {
    const peer = startPeer();
    try {
      const discovered = await peer.request('server/discover', { _meta: meta }, deadlineMs);
      expect(discovered.result).toMatchObject({ supportedVersions: ['2026-07-28'] });
      const initialize = await peer.request(
        'initialize',
        { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fallback', version: '1' } },
        deadlineMs,
      );
      expect(initialize.result).toMatchObject({ protocolVersion: '2025-11-25' });
      peer.notify('notifications/initialized');
      const listed = await peer.request('resources/list', {}, deadlineMs);
      expect(listed.result).toBeDefined();
      expect(listed.result).not.toHaveProperty('resultType');
    } finally {
      await peer.close(deadlineMs);
    }
  });
});

describe('a stdio connection opened with a 2025 initialize', () => {
  it('stays 2025: a later request carrying the 2026-07-28 envelope is answered in the 2025 shape', async () => {
    const peer = startPeer();
    try {
      const initialize = await peer.request(
        'initialize',
        { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } },
        deadlineMs,
      );
      expect(initialize.result).toMatchObject({ protocolVersion: '2025-11-25' });
      peer.notify('notifications/initialized');
      const listed = await peer.request('resources/list', { _meta: meta }, deadlineMs);
      expect(listed.result).toBeDefined();
      expect(listed.result).not.toHaveProperty('resultType');
      expect(listed.result).not.toHaveProperty('ttlMs');
      const discovered = await peer.request('server/discover', { _meta: meta }, deadlineMs);
      expect(discovered.error?.code).toBe(-32601);
    } finally {
      await peer.close(deadlineMs);
    }
  });
});
