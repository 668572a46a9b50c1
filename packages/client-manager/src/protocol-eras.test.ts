import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BackendError, silentLogger } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger, fixtureServer, waitFor } from '../test/test-support.js';
import { McpClientManager } from './index.js';

/**
 * Backends that speak only MCP 2026-07-28 (issue 10): the 2.x SDK server refusing every 2025 request, over stdio and
 * over Streamable HTTP, and one serving both eras. The 1.x client's `initialize` is refused with `-32022`; the
 * manager then connects in 2026-07-28 with the 2.x client and remembers the verdict for reconnects.
 */

const modernServer = fileURLToPath(new URL('../test/fixtures/modern-server.mjs', import.meta.url));

/** Starts the fixture over HTTP and resolves with its URL (the line it prints once it listens). */
async function startHttpFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [modernServer, '--http'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (text: string) => {
      output += text;
      const match = /^listening (\S+)\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code}) before listening`)));
  });
  return { child, url };
}

describe('backends of both protocol eras', () => {
  let manager: McpClientManager;
  let http: { child: ChildProcess; url: string };
  const recording = createRecordingLogger();

  beforeAll(async () => {
    http = await startHttpFixture();
    manager = new McpClientManager(
      {
        mcpServers: {
          modern: fixtureServer('modern-server.mjs'),
          'modern-http': { url: http.url },
          both: fixtureServer('modern-server.mjs', ['--both']),
          'both-pinned': fixtureServer('modern-server.mjs', ['--both'], { protocol: '2026-07-28' }),
          'pinned-2025': fixtureServer('modern-server.mjs', [], { protocol: '2025' }),
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
  });

  it('connects 2026-only backends over stdio and Streamable HTTP in 2026-07-28, a both-eras one in 2025', () => {
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
    expect(statuses).toEqual([
      { id: 'modern', state: 'running', transport: 'stdio', ...modern, ...info },
      { id: 'modern-http', state: 'running', transport: 'http', ...modern, ...info },
      // The 1.x client's handshake is accepted by a both-eras server: it stays on 2025 (no configured pin).
      {
        id: 'both',
        state: 'running',
        transport: 'stdio',
        protocolVersion: '2025-11-25',
        protocolEra: 'legacy',
        ...info,
      },
      // `protocol: "2026-07-28"` picks 2026 on a server of both eras, without trying 2025 first.
      { id: 'both-pinned', state: 'running', transport: 'stdio', ...modern, ...info },
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
    expect(manager.status().find((status) => status.id === 'pinned-2025')?.lastError).toBe(
      'MCP server \'pinned-2025\' Unsupported protocol version: 2025-11-25 (it speaks 2026-07-28; its config entry\'s "protocol" may pin "2026-07-28", or leave it out)',
    );
    expect(manager.serverInstructions('modern')).toBe('A 2026-07-28 fixture.');
    const switched = recording.records.filter((record) => record.message.includes('refused the 2025 handshake'));
    expect(switched.map((record) => record.fields.server).sort()).toEqual(['modern', 'modern-http']);
  });

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
    expect((await manager.callTool('both', 'era', {})).content).toEqual([{ type: 'text', text: 'legacy' }]);
    expect((await manager.callTool('both-pinned', 'era', {})).content).toEqual([{ type: 'text', text: 'modern' }]);
  });

  it('health-checks modern backends with server/discover and legacy ones with ping', async () => {
    const health = await manager.healthCheck({ timeoutMs: 10_000 });
    expect(health.map((entry) => [entry.id, entry.ok])).toEqual([
      ['modern', true],
      ['modern-http', true],
      ['both', true],
      ['both-pinned', true],
      ['pinned-2025', false],
    ]);
  });

  it('reconnects a crashed 2026 backend straight in 2026-07-28 (the verdict is remembered)', async () => {
    const switches = () => recording.records.filter((record) => record.message.includes('refused the 2025 handshake'));
    const before = switches().length;
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
    expect(switches()).toHaveLength(before);
    expect((await manager.callTool('modern', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'Echo: back' },
    ]);
  }, 40_000);
});

describe('a server that is not MCP at all', () => {
  it('still fails with its own reason (no second try in 2026-07-28)', async () => {
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
