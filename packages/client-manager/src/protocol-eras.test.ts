import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackendError, silentLogger, type ToolInfo } from '@search-mcp/shared';
import { fixtureServer, startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger, realServerEntry, waitFor } from '../test/test-support.js';
import { McpClientManager } from './index.js';

/**
 * Backends of both protocol eras (issue 10). Under `protocol: "auto"` (the default) the manager probes with
 * `server/discover` and connects in 2026-07-28 (2.x client) whenever the backend offers it — a 2026-only server and
 * one serving both eras, over stdio and Streamable HTTP — else in 2025 (1.x client) on the same process. A server that
 * exits on the probe is started again in 2025. The verdict is remembered for reconnects; `protocol` pins an era.
 */

describe('backends of both protocol eras', () => {
  let manager: McpClientManager;
  let http: { child: ChildProcess; url: string };
  let bothHttp: { child: ChildProcess; url: string };
  let directory: string;
  /** One line per start of the `exits` server. */
  let spawnLog: string;
  let silentSpawnLog: string;
  const recording = createRecordingLogger();
  /** The era probes a server's connects made (a debug record each). */
  const probes = (id: string) =>
    recording.records.filter((record) => record.message === 'era probe' && record.fields.server === id);
  const spawns = async (log = spawnLog) =>
    (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '').length;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-eras-'));
    spawnLog = join(directory, 'spawns.log');
    silentSpawnLog = join(directory, 'silent-spawns.log');
    [http, bothHttp] = await Promise.all([startHttpFixture(), startHttpFixture('--both')]);
    manager = new McpClientManager(
      {
        mcpServers: {
          modern: fixtureServer('modern-server.mjs'),
          'modern-http': { url: http.url },
          both: fixtureServer('modern-server.mjs', ['--both']),
          'both-http': { url: bothHttp.url },
          'both-pinned': fixtureServer('modern-server.mjs', ['--both'], { protocol: '2026-07-28' }),
          'both-2025': fixtureServer('modern-server.mjs', ['--both'], { protocol: '2025' }),
          'pinned-2025': fixtureServer('modern-server.mjs', [], { protocol: '2025' }),
          everything: { command: process.execPath, args: [realServerEntry('@modelcontextprotocol/server-everything')] },
          exits: fixtureServer('exits-on-unknown-request.mjs', [], { env: { SPAWN_LOG: spawnLog } }),
          // A 2025 server pinned to 2026-07-28: fails, saying what it speaks.
          'pinned-2026': fixtureServer('exits-on-unknown-request.mjs', ['--lenient'], { protocol: '2026-07-28' }),
          // Never answers the probe: 2025 after half of its start-up budget, on the same process. The budget leaves the
          // 2025 handshake 5 s after the probe's wait: with eleven servers starting at once on a busy 2-core machine,
          // node alone has taken over 2 s to boot (a 4 s budget failed in CI).
          silent: fixtureServer('exits-on-unknown-request.mjs', ['--silent-on-unknown'], {
            env: { SPAWN_LOG: silentSpawnLog },
            startupTimeoutMs: 10_000,
          }),
        },
      },
      {
        logger: recording.logger,
        shutdownGraceMs: 300,
        restartPolicy: { initialDelayMs: 50, maxDelayMs: 200 },
      },
    );
    await manager.startAll();
  }, 60_000);

  afterAll(async () => {
    await manager?.close();
    http?.child.kill();
    bothHttp?.child.kill();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('prefers 2026-07-28 whenever the backend speaks it, over stdio and Streamable HTTP; pins win', () => {
    const statuses = manager.status().map((status) => ({
      id: status.id,
      state: status.state,
      transport: status.transport,
      protocolVersion: status.protocolVersion,
      protocolEra: status.protocolEra,
      serverInfo: status.serverInfo,
      features: status.features,
    }));
    const modern = { protocolVersion: '2026-07-28', protocolEra: 'modern' };
    const info = {
      serverInfo: { name: 'modern-fixture', version: '1.0.0' },
      features: ['tools', 'resources', 'prompts', 'logging'],
    };
    const legacy = { protocolVersion: '2025-11-25', protocolEra: 'legacy' };
    expect(statuses.slice(0, 7)).toEqual([
      { id: 'modern', state: 'running', transport: 'stdio', ...modern, ...info },
      { id: 'modern-http', state: 'running', transport: 'http', ...modern, ...info },
      // A server of both eras answers the probe with 2026-07-28 among its versions: the newest wins.
      { id: 'both', state: 'running', transport: 'stdio', ...modern, ...info },
      { id: 'both-http', state: 'running', transport: 'http', ...modern, ...info },
      // `protocol: "2026-07-28"` picks 2026 on a server of both eras, without a probe.
      { id: 'both-pinned', state: 'running', transport: 'stdio', ...modern, ...info },
      // `protocol: "2025"`: never probed, 2025 even where 2026-07-28 is offered.
      { id: 'both-2025', state: 'running', transport: 'stdio', ...legacy, ...info },
      // `protocol: "2025"`: no second try in 2026-07-28.
      {
        id: 'pinned-2025',
        state: 'failed',
        transport: undefined,
        protocolVersion: undefined,
        protocolEra: undefined,
        serverInfo: undefined,
        features: undefined,
      },
    ]);
    expect(
      statuses
        .slice(7)
        .map(({ id, state, protocolVersion, protocolEra }) => ({ id, state, protocolVersion, protocolEra })),
    ).toEqual([
      { id: 'everything', state: 'running', ...legacy },
      { id: 'exits', state: 'running', ...legacy },
      { id: 'pinned-2026', state: 'failed', protocolVersion: undefined, protocolEra: undefined },
      { id: 'silent', state: 'running', ...legacy },
    ]);
    expect(manager.status().find((status) => status.id === 'pinned-2026')?.lastError).toBe(
      'MCP server \'pinned-2026\' Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode) (it does not speak 2026-07-28: a 2025 server; its config entry\'s "protocol" may say "2025", or be left out)',
    );
    expect(manager.status().find((status) => status.id === 'pinned-2025')?.lastError).toBe(
      'MCP server \'pinned-2025\' Unsupported protocol version: 2025-11-25 (it speaks 2026-07-28; its config entry\'s "protocol" may pin "2026-07-28", or leave it out)',
    );
    expect(manager.serverInstructions('modern')).toBe('A 2026-07-28 fixture.');
    // Nobody was asked for 2025 first: the probe found 2026-07-28 where it is offered.
    expect(recording.records.filter((record) => record.message.includes('refused the 2025 handshake'))).toEqual([]);
    const probed = (id: string) => probes(id).map((record) => [record.fields.era, record.fields.why]);
    expect(['modern', 'modern-http', 'both', 'both-http'].map(probed)).toEqual([
      [['modern', undefined]],
      [['modern', undefined]],
      [['modern', undefined]],
      [['modern', undefined]],
    ]);
    // Answered -32601 (or, on a busy machine, not within the wait): 2025 either way.
    expect(probes('everything').map((record) => record.fields.era)).toEqual(['legacy']);
    expect(['both-pinned', 'both-2025', 'pinned-2025'].map(probed)).toEqual([[], [], []]);
  });

  it('connects a 2025 server after the probe on the same process (one spawn)', async () => {
    const ended = recording.records.filter(
      (record) => record.message === 'server process ended' && record.fields.server === 'everything',
    );
    expect(ended).toEqual([]);
    expect((await manager.callTool('everything', 'echo', { message: 'same process' })).content).toEqual([
      { type: 'text', text: 'Echo: same process' },
    ]);
  });

  it('waits a bounded time for a server that never answers the probe, then connects it in 2025 on the same process', async () => {
    expect(probes('silent').map((record) => [record.fields.era, record.fields.why])).toEqual([['legacy', 'silent']]);
    expect(await spawns(silentSpawnLog)).toBe(1);
    expect((await manager.callTool('silent', 'echo', { message: 'late' })).content).toEqual([
      { type: 'text', text: 'Echo: late' },
    ]);
  });

  it('starts a server that exits on the probe again in 2025, once, and reconnects it without probing', async () => {
    expect(await spawns()).toBe(2);
    const restarted = () =>
      recording.records.filter(
        (record) => record.message.includes('ended on the 2026-07-28 probe') && record.fields.server === 'exits',
      );
    expect(restarted().map((record) => record.level)).toEqual(['info']);
    expect(probes('exits').map((record) => record.fields.why)).toEqual(['closed']);
    const pid = manager.status().find((status) => status.id === 'exits')?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await waitFor(
      () => {
        const status = manager.status().find((entry) => entry.id === 'exits');
        return status?.state === 'running' && status.pid !== pid;
      },
      'the restart',
      30_000,
    );
    expect(await spawns()).toBe(3);
    expect(probes('exits')).toHaveLength(1);
    expect(restarted()).toHaveLength(1);
    expect(manager.status().find((status) => status.id === 'exits')?.protocolEra).toBe('legacy');
    expect((await manager.callTool('exits', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'Echo: back' },
    ]);
  }, 40_000);

  for (const id of ['both', 'both-http']) {
    it(`relays a 2026 backend's tool-list change through subscriptions/listen (${id})`, async () => {
      const changed = new Promise<readonly ToolInfo[]>((resolve) => {
        const listener = (serverId: string, tools: readonly ToolInfo[]) => {
          if (serverId !== id || !tools.some((tool) => tool.toolName.startsWith('grown-'))) return;
          manager.off('tools-changed', listener);
          resolve(tools);
        };
        manager.on('tools-changed', listener);
      });
      const [block] = (await manager.callTool(id, 'grow', {})).content;
      const grown = block?.type === 'text' ? block.text.replace('grew ', '') : '';
      expect(grown).toMatch(/^grown-\d+$/);
      const tools = await changed;
      expect(tools.map((tool) => tool.toolName)).toContain(grown);
      expect((await manager.callTool(id, grown, {})).content).toEqual([{ type: 'text', text: grown }]);
    });
  }

  for (const id of ['modern', 'modern-http']) {
    describe(id, () => {
      it('lists and calls tools, with progress', async () => {
        expect((await manager.listTools(id)).map((tool) => tool.toolName)).toEqual([
          'echo',
          'slow',
          'cancellations',
          'era',
          'ask',
          'ask-twice',
          'sample',
          'client-capabilities',
          'grow',
          'log',
        ]);
        expect((await manager.callTool(id, 'echo', { message: 'hi' })).content).toEqual([
          { type: 'text', text: 'Echo: hi' },
        ]);
        expect((await manager.callTool(id, 'era', {})).content).toEqual([{ type: 'text', text: 'modern' }]);
        const progress: unknown[] = [];
        const result = await manager.callTool(
          id,
          'slow',
          { steps: 3 },
          { onProgress: (update) => progress.push(update) },
        );
        expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
        expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3 })));
      });

      it('cancels a call on the backend', async () => {
        const count = async () => {
          const [block] = (await manager.callTool(id, 'cancellations', {})).content;
          return block?.type === 'text' ? Number(block.text) : Number.NaN;
        };
        const before = await count();
        const controller = new AbortController();
        const call = manager.callTool(
          id,
          'slow',
          {},
          { signal: controller.signal, onProgress: () => controller.abort(new Error('cancelled by the test')) },
        );
        await expect(call).rejects.toThrow('cancelled by the test');
        await waitFor(async () => (await count()) === before + 1, 'the backend to see the cancellation');
      });

      it('reads resources, gets prompts and passes errors on with their code', async () => {
        const page = await manager.listResources(id);
        expect(page.resources.map((resource) => resource.uri)).toEqual(['modern://greeting', 'modern://asked']);
        expect((await manager.readResource(id, 'modern://greeting')).contents).toEqual([
          { uri: 'modern://greeting', mimeType: 'text/plain', text: 'hello from 2026' },
        ]);
        expect((await manager.getPrompt(id, 'greet', { name: 'Ann' })).messages).toEqual([
          { role: 'user', content: { type: 'text', text: 'Hello, Ann!' } },
        ]);
        const failure = await manager.callTool(id, 'missing', {}).catch((error: unknown) => error);
        expect(BackendError.isInstance(failure)).toBe(true);
        expect(failure).toMatchObject({ backendCode: -32602, message: 'Tool not found: missing' });
      });
    });
  }

  it('answers from the era the connection speaks (the both-eras server sees the client it was given)', async () => {
    expect((await manager.callTool('both', 'era', {})).content).toEqual([{ type: 'text', text: 'modern' }]);
    expect((await manager.callTool('both-http', 'era', {})).content).toEqual([{ type: 'text', text: 'modern' }]);
    expect((await manager.callTool('both-pinned', 'era', {})).content).toEqual([{ type: 'text', text: 'modern' }]);
    expect((await manager.callTool('both-2025', 'era', {})).content).toEqual([{ type: 'text', text: 'legacy' }]);
  });

  it('refuses resource subscriptions a 2026 backend does not offer, with a clear error', async () => {
    await expect(manager.subscribeResource('modern', 'modern://greeting')).rejects.toThrow(/subscri/);
  });

  it('health-checks modern backends with server/discover and legacy ones with ping', async () => {
    const health = await manager.healthCheck({ timeoutMs: 10_000 });
    expect(health.map((entry) => [entry.id, entry.ok])).toEqual([
      ['modern', true],
      ['modern-http', true],
      ['both', true],
      ['both-http', true],
      ['both-pinned', true],
      ['both-2025', true],
      ['pinned-2025', false],
      ['everything', true],
      ['exits', true],
      ['pinned-2026', false],
      ['silent', true],
    ]);
  });

  it('reconnects a crashed 2026 backend straight in 2026-07-28 (the verdict is remembered, no probe)', async () => {
    expect(probes('modern')).toHaveLength(1);
    const pid = manager.status().find((status) => status.id === 'modern')?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await waitFor(
      () => {
        const status = manager.status().find((entry) => entry.id === 'modern');
        return status?.state === 'running' && status.pid !== pid;
      },
      'the restart',
      30_000,
    );
    expect(manager.status().find((status) => status.id === 'modern')?.protocolVersion).toBe('2026-07-28');
    expect(probes('modern')).toHaveLength(1);
    expect((await manager.callTool('modern', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'Echo: back' },
    ]);
  }, 40_000);
});

describe('a server that is not MCP at all', () => {
  it('still fails with its own reason (no try in 2026-07-28 after the probe)', async () => {
    const manager = new McpClientManager(
      { mcpServers: { broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } },
      { logger: silentLogger, shutdownGraceMs: 300 },
    );
    try {
      const [status] = await manager.startAll();
      expect(status?.state).toBe('failed');
      expect(status?.lastError).toContain('exit code 3');
      expect(status?.protocolEra).toBeUndefined();
    } finally {
      await manager.close();
    }
  });
});
