import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BackendError,
  ConfigError,
  ServerNotRunningError,
  TimeoutError,
  ToolDisabledError,
  ToolNotFoundError,
  type ServerState,
} from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger, fixtureServer, isProcessAlive, waitFor } from '../test/test-support.js';
import { McpClientManager, type McpClientManagerOptions } from './index.js';

const managers: McpClientManager[] = [];
const temporaryDirectories: string[] = [];

function createManager(mcpServers: Record<string, unknown>, options: McpClientManagerOptions = {}) {
  const recording = createRecordingLogger();
  const manager = new McpClientManager({ mcpServers } as never, {
    logger: recording.logger,
    shutdownGraceMs: 300,
    restartPolicy: { initialDelayMs: 50, maxDelayMs: 200 },
    ...options,
  });
  managers.push(manager);
  return { manager, records: recording.records };
}

function stateOf(manager: McpClientManager, id: string): ServerState | undefined {
  return manager.status().find((status) => status.id === id)?.state;
}

function pidOf(manager: McpClientManager, id: string): number {
  const pid = manager.status().find((status) => status.id === id)?.pid;
  if (pid === undefined) throw new Error(`${id} has no pid`);
  return pid;
}

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await Promise.all(temporaryDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('configuration', () => {
  it('rejects an invalid config with a ConfigError naming the path', () => {
    let caught: unknown;
    try {
      new McpClientManager({ mcpServers: { broken: { args: ['x'] } } } as never);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).issues.some((issue) => issue.path.startsWith('mcpServers.broken'))).toBe(true);
  });

  it('keeps a disabled server out of startAll and refuses to start it', async () => {
    const { manager } = createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      off: { ...fixtureServer('stdio-fixture-server.mjs'), enabled: false },
    });
    await manager.startAll();
    expect(stateOf(manager, 'good')).toBe('running');
    expect(stateOf(manager, 'off')).toBe('disabled');
    await expect(manager.start('off')).rejects.toThrow('mcpServers.off.enabled: the server is disabled');
    await expect(manager.start('nope')).rejects.toThrow(ConfigError);
  });

  it('answers serverState (the catalog asks it) with the current state of a configured server', async () => {
    const { manager } = createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      off: { ...fixtureServer('stdio-fixture-server.mjs'), enabled: false },
    });
    expect(manager.serverState('good')).toBe('stopped');
    await manager.startAll();
    expect(manager.serverState('good')).toBe('running');
    expect(manager.serverState('off')).toBe('disabled');
    expect(manager.serverState('nope')).toBeUndefined();
    expect(manager.serverState('constructor')).toBeUndefined();
    await manager.stop('good');
    expect(manager.serverState('good')).toBe('stopped');
  });

  it('passes config env over the default environment, and cwd', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-cwd-'));
    temporaryDirectories.push(directory);
    const { manager } = createManager({
      envy: fixtureServer('stdio-fixture-server.mjs', [], { env: { FIXTURE_VALUE: 'from-config' }, cwd: directory }),
    });
    await manager.startAll();
    const result = await manager.callTool('envy', 'environment');
    expect(result.structuredContent).toEqual({ fixtureValue: 'from-config', hasPath: true, cwd: directory });
  });
});

describe('bad servers never hold up good ones', () => {
  it('reports a command that does not exist and keeps the others working', async () => {
    const { manager } = createManager({
      missing: { command: 'search-mcp-no-such-command-xyz' },
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const missing = manager.status().find((status) => status.id === 'missing');
    expect(missing?.state).toBe('failed');
    expect(missing?.lastError).toMatch(/command not found: search-mcp-no-such-command-xyz/);
    const result = await manager.callTool('good', 'echo', { message: 'still here' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
  });

  it('skips garbage lines on stdout and keeps the server', async () => {
    const { manager, records } = createManager({ noisy: fixtureServer('stdio-fixture-server.mjs', ['--garbage']) });
    await manager.startAll();
    expect(stateOf(manager, 'noisy')).toBe('running');
    const result = await manager.callTool('noisy', 'echo', { message: 'through the noise' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: through the noise' }]);
    const warnings = records.filter((record) => record.level === 'warn' && record.message.includes('not JSON-RPC'));
    expect(warnings.map((record) => record.fields.line)).toContain('Server starting... this line is not JSON-RPC');
    expect(warnings.every((record) => record.fields.server === 'noisy')).toBe(true);
  });

  it('gives up on a server that never answers initialize after startupTimeoutMs and ends its process', async () => {
    const { manager } = createManager({
      silent: fixtureServer('silent-server.mjs', [], { startupTimeoutMs: 800 }),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    const pids: number[] = [];
    manager.on('status-change', (status) => {
      if (status.id === 'silent' && status.pid !== undefined) pids.push(status.pid);
    });
    const silentStart = manager.start('silent');
    await expect(silentStart).rejects.toThrow(TimeoutError);
    await expect(silentStart).rejects.toThrow(/did not finish starting within 800 ms/);
    await manager.startAll();
    const silent = manager.status().find((status) => status.id === 'silent');
    expect(silent?.state).toBe('failed');
    expect(silent?.lastError).toMatch(/silent: listening and saying nothing/);
    expect(stateOf(manager, 'good')).toBe('running');
    expect(pids.length).toBeGreaterThan(0);
    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 'the silent server to be ended');
  });

  it('reports a server that exits at once with its exit code and stderr', async () => {
    const { manager } = createManager({
      quitter: fixtureServer('exit-immediately-server.mjs'),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const quitter = manager.status().find((status) => status.id === 'quitter');
    expect(quitter?.state).toBe('failed');
    expect(quitter?.lastError).toMatch(/exit code 3/);
    expect(quitter?.lastError).toMatch(/FIXTURE_API_KEY is not set/);
    expect(stateOf(manager, 'good')).toBe('running');
  });

  it('does not let a server that takes 10 s to start delay the others', async () => {
    const { manager } = createManager({
      slow: fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '10000']),
      fast: fixtureServer('stdio-fixture-server.mjs'),
    });
    const order: string[] = [];
    manager.on('status-change', (status) => {
      if (status.state === 'running') order.push(status.id);
    });
    let fastWorkedWhileSlowStarting = false;
    manager.once('tools-changed', async (serverId) => {
      if (serverId !== 'fast') return;
      const result = await manager.callTool('fast', 'echo', { message: 'early' });
      fastWorkedWhileSlowStarting = stateOf(manager, 'slow') === 'starting' && result.content !== undefined;
    });
    const statuses = await manager.startAll();
    expect(order).toEqual(['fast', 'slow']);
    expect(fastWorkedWhileSlowStarting).toBe(true);
    expect(statuses.map((status) => status.state)).toEqual(['running', 'running']);
    expect(statuses.find((status) => status.id === 'slow')?.toolCount).toBeGreaterThan(0);
  });

  it('fails a slow server at its own startupTimeoutMs', async () => {
    const { manager } = createManager({
      slow: fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '10000'], { startupTimeoutMs: 500 }),
      fast: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    expect(stateOf(manager, 'slow')).toBe('failed');
    expect(manager.status().find((status) => status.id === 'slow')?.lastError).toMatch(/within 500 ms/);
    expect(stateOf(manager, 'fast')).toBe('running');
  });
});

describe('crashes and restarts', () => {
  it('fails a call whose server crashes mid-call, then restarts the server', async () => {
    const { manager } = createManager({
      crashy: fixtureServer('stdio-fixture-server.mjs'),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const firstPid = pidOf(manager, 'crashy');
    const failure = manager.callTool('crashy', 'crash');
    await expect(failure).rejects.toThrow(BackendError);
    await expect(failure).rejects.toThrow(
      /MCP server 'crashy' closed the connection during tools\/call crash \(exit code 7\)/,
    );
    expect(['crashed', 'starting', 'running']).toContain(stateOf(manager, 'crashy'));
    expect((await manager.callTool('good', 'echo', { message: 'unaffected' })).content).toEqual([
      { type: 'text', text: 'Echo: unaffected' },
    ]);
    await waitFor(() => stateOf(manager, 'crashy') === 'running', 'the crashed server to restart');
    const status = manager.status().find((entry) => entry.id === 'crashy');
    expect(status?.restarts).toBe(1);
    expect(status?.pid).not.toBe(firstPid);
    expect((await manager.callTool('crashy', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'Echo: back' },
    ]);
  });

  it('marks a server failed after the configured number of restarts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-flaky-'));
    temporaryDirectories.push(directory);
    const { manager } = createManager(
      { flaky: fixtureServer('stdio-fixture-server.mjs', ['--only-first-start', join(directory, 'started')]) },
      { restartPolicy: { initialDelayMs: 30, maxDelayMs: 60, maxAttempts: 3 } },
    );
    const states: ServerState[] = [];
    manager.on('status-change', (status) => {
      if (status.id === 'flaky') states.push(status.state);
    });
    await manager.startAll();
    await expect(manager.callTool('flaky', 'crash')).rejects.toThrow(BackendError);
    await waitFor(() => stateOf(manager, 'flaky') === 'failed', 'the server to be marked failed');
    const status = manager.status().find((entry) => entry.id === 'flaky');
    expect(status?.restarts).toBe(3);
    expect(status?.lastError).toMatch(/gave up after 3 restarts/);
    expect(status?.lastError).toMatch(/refusing to start a second time/);
    expect(states.filter((state) => state === 'crashed')).toHaveLength(3);
  });

  it('doubles the backoff for crashes in a row and resets it after a stable run', async () => {
    const run = async (stableAfterMs: number, pauseMs: number) => {
      const { manager, records } = createManager(
        { crashy: fixtureServer('stdio-fixture-server.mjs') },
        { restartPolicy: { initialDelayMs: 40, maxDelayMs: 1000, stableAfterMs } },
      );
      await manager.startAll();
      for (let crash = 0; crash < 2; crash += 1) {
        await expect(manager.callTool('crashy', 'crash')).rejects.toThrow(BackendError);
        await waitFor(() => stateOf(manager, 'crashy') === 'running', 'a restart');
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      return records
        .filter((record) => record.message === 'restarting after backoff')
        .map((record) => record.fields.delayMs);
    };
    expect(await run(60_000, 0)).toEqual([40, 80]);
    expect(await run(150, 300)).toEqual([40, 40]);
  });

  it('fails a call to a server that is down at once and reconnects it', async () => {
    const { manager } = createManager(
      { victim: fixtureServer('stdio-fixture-server.mjs') },
      // The scheduled restart is 30 s away: only the call can bring it back in time.
      { restartPolicy: { initialDelayMs: 30_000, maxDelayMs: 60_000 } },
    );
    await manager.startAll();
    process.kill(pidOf(manager, 'victim'), 'SIGKILL');
    await waitFor(() => stateOf(manager, 'victim') === 'crashed', 'the crash to be noticed');
    const failure = await manager.callTool('victim', 'echo', { message: 'x' }).catch((error: unknown) => error);
    expect(ServerNotRunningError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe("MCP server 'victim' is not running");
    // It failed without waiting for the reconnect it triggered.
    expect(stateOf(manager, 'victim')).toBe('starting');
    await waitFor(() => stateOf(manager, 'victim') === 'running', 'the reconnect the call triggered');
    expect((await manager.callTool('victim', 'echo', { message: 'again' })).content).toEqual([
      { type: 'text', text: 'Echo: again' },
    ]);
  });

  it('brings back a failed server when a call needs it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-late-'));
    temporaryDirectories.push(directory);
    const { manager } = createManager({ late: fixtureServer('silent-server.mjs', [], { startupTimeoutMs: 300 }) });
    await manager.startAll();
    expect(stateOf(manager, 'late')).toBe('failed');
    await expect(manager.callTool('late', 'echo', { message: 'x' })).rejects.toThrow(ServerNotRunningError);
    await waitFor(() => stateOf(manager, 'late') === 'starting', 'a reconnect attempt');
  });
});

describe('stop, start, restart, close', () => {
  it('stops and restarts one server with a new process', async () => {
    const { manager } = createManager({
      one: fixtureServer('stdio-fixture-server.mjs'),
      two: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const firstPid = pidOf(manager, 'one');
    await manager.stop('one');
    expect(stateOf(manager, 'one')).toBe('stopped');
    expect(isProcessAlive(firstPid)).toBe(false);
    expect(await manager.listTools('one')).toEqual([]);
    await expect(manager.callTool('one', 'echo', { message: 'x' })).rejects.toThrow(ServerNotRunningError);
    expect(stateOf(manager, 'one')).toBe('stopped');
    await manager.start('one');
    const secondPid = pidOf(manager, 'one');
    expect(secondPid).not.toBe(firstPid);
    await manager.restart('one');
    expect(pidOf(manager, 'one')).not.toBe(secondPid);
    expect(manager.status().find((status) => status.id === 'one')?.restarts).toBe(0);
    expect(stateOf(manager, 'two')).toBe('running');
  });

  it('stops a server that is still starting at once, without waiting out the grace period', async () => {
    const { manager } = createManager(
      { slow: fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '10000']) },
      { shutdownGraceMs: 5000 },
    );
    const starting = manager.start('slow').catch(() => {});
    await waitFor(
      () => stateOf(manager, 'slow') === 'starting' && manager.status()[0]?.pid !== undefined,
      'the server to be starting',
    );
    const pid = pidOf(manager, 'slow');
    const stopped = Date.now();
    await manager.stop('slow');
    // Well under the 5 s grace a running server would get after stdin closes.
    expect(Date.now() - stopped).toBeLessThan(2500);
    expect(isProcessAlive(pid)).toBe(false);
    await starting;
  });

  it('ends the whole process tree on close, even when the launcher ignores SIGTERM', async () => {
    const { manager } = createManager({ wrapped: fixtureServer('wrapper-server.mjs', ['--stubborn']) });
    await manager.startAll();
    const launcherPid = pidOf(manager, 'wrapped');
    const result = await manager.callTool('wrapped', 'pid');
    const serverPid = (result.structuredContent as { pid: number }).pid;
    expect(serverPid).not.toBe(launcherPid);
    expect(isProcessAlive(serverPid)).toBe(true);
    await manager.close();
    expect(isProcessAlive(launcherPid)).toBe(false);
    await waitFor(() => !isProcessAlive(serverPid), 'the grandchild to be ended');
    expect(stateOf(manager, 'wrapped')).toBe('stopped');
    await expect(manager.startAll()).rejects.toThrow(/closed/);
  });
});

describe('tool lists', () => {
  it('drops malformed tools with a warning and keeps the rest of the server', async () => {
    const { manager, records } = createManager({
      messy: fixtureServer('stdio-fixture-server.mjs', ['--malformed-tools']),
    });
    await manager.startAll();
    const names = (await manager.listTools('messy')).map((tool) => tool.toolName);
    expect(names).toEqual([
      'echo',
      'sleep',
      'crash',
      'pid',
      'add-tool',
      'error-result',
      'fail',
      'environment',
      'bad-description',
    ]);
    const dropped = records.filter((record) => record.message.startsWith('dropped or repaired'));
    expect(dropped.map((record) => record.fields.reason)).toEqual([
      '`name` is missing or not a string',
      '`inputSchema` is missing or not an object',
      '`inputSchema.type` is not "object"',
      'not an object',
      '`description` is not a string; ignored',
    ]);
  });

  it('follows nextCursor across pages and stops on a cursor that repeats', async () => {
    const { manager, records } = createManager({
      paged: fixtureServer('stdio-fixture-server.mjs', ['--pages', '3']),
      looping: fixtureServer('stdio-fixture-server.mjs', ['--loop-cursor']),
    });
    await manager.startAll();
    expect(await manager.listTools('paged')).toHaveLength(8);
    expect(await manager.listTools('looping')).toHaveLength(8);
    expect(
      records.some(
        (record) => record.message.includes('cursor it had returned before') && record.fields.server === 'looping',
      ),
    ).toBe(true);
  });

  it('refreshes the cached list on tools/list_changed and emits tools-changed', async () => {
    const { manager } = createManager({ dynamic: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const revision = manager.toolsRevision;
    const changed = new Promise<string[]>((resolve) => {
      manager.on('tools-changed', (serverId, tools) => {
        if (serverId === 'dynamic' && tools.some((tool) => tool.toolName === 'extra-tool'))
          resolve(tools.map((tool) => tool.toolKey));
      });
    });
    await manager.callTool('dynamic', 'add-tool');
    expect(await changed).toContain('dynamic:extra-tool');
    expect((await manager.listTools('dynamic')).map((tool) => tool.toolName)).toContain('extra-tool');
    expect(manager.toolsRevision).toBeGreaterThan(revision);
  });

  it('hides tools whose permission is false and refuses to call them', async () => {
    const { manager } = createManager({
      guarded: fixtureServer('stdio-fixture-server.mjs', [], { toolPermissions: { crash: false } }),
    });
    await manager.startAll();
    const tools = await manager.listAllTools();
    expect(tools.map((tool) => tool.toolKey)).not.toContain('guarded:crash');
    expect(tools.map((tool) => tool.toolKey)).toContain('guarded:echo');
    expect(manager.status()[0]?.toolCount).toBe(tools.length);
    await expect(manager.callTool('guarded', 'crash')).rejects.toThrow(ToolDisabledError);
    expect(stateOf(manager, 'guarded')).toBe('running');
  });

  it('keeps every field of a definition for pass-through, and the server metadata of the config', async () => {
    const { manager } = createManager({
      rich: fixtureServer('stdio-fixture-server.mjs', [], {
        description: 'A rich server',
        projects: ['web'],
        category: 'demo',
        tags: ['x'],
      }),
    });
    await manager.startAll();
    const tool = (await manager.listTools('rich')).find((entry) => entry.toolName === 'error-result');
    expect(tool?.toolKey).toBe('rich:error-result');
    expect(tool?.outputSchema).toEqual({ type: 'object', properties: { reason: { type: 'string' } }, required: [] });
    expect(tool?.definition?.icons).toEqual([{ src: 'data:,x' }]);
    expect(tool?.definition?._meta).toEqual({ 'fixture/kept': true });
    expect(tool).toMatchObject({
      serverDescription: 'A rich server',
      serverProjects: ['web'],
      category: 'demo',
      tags: ['x'],
    });
  });
});

describe('calls', () => {
  it('returns results unchanged, including error results with structuredContent and _meta', async () => {
    const { manager } = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const result = await manager.callTool('fixture', 'error-result');
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'it went wrong' }],
      structuredContent: { reason: 'on purpose' },
      _meta: { 'fixture/trace': 'abc' },
    });
  });

  it("maps a backend's JSON-RPC error without doubled prefixes", async () => {
    const { manager } = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const failure = await manager.callTool('fixture', 'fail').catch((error: unknown) => error);
    expect(BackendError.isInstance(failure)).toBe(true);
    expect((failure as BackendError).message).toBe('the fixture refused');
    expect((failure as BackendError).backendCode).toBe(-32602);
    expect((failure as BackendError).jsonRpcCode).toBe(-32000);
  });

  it('rejects unknown server ids with ToolNotFoundError', async () => {
    const { manager } = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await expect(manager.callTool('ghost', 'echo')).rejects.toThrow(ToolNotFoundError);
    await expect(manager.callTool('ghost', 'echo')).rejects.toThrow('Tool not found: ghost:echo');
  });

  it('times out a call, and lets progress reset the timeout', async () => {
    const { manager } = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs', [], { timeoutMs: 400 }) });
    await manager.startAll();
    const timedOut = await manager.callTool('fixture', 'sleep', { ms: 1500 }).catch((error: unknown) => error);
    expect(TimeoutError.isInstance(timedOut)).toBe(true);
    expect((timedOut as TimeoutError).jsonRpcCode).toBe(-32001);
    expect((timedOut as TimeoutError).message).toMatch(/did not answer tools\/call sleep within 400 ms/);
    const progress: number[] = [];
    const result = await manager.callTool(
      'fixture',
      'sleep',
      { ms: 1200 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slept 1200' }]);
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('cancels a call by AbortSignal and keeps the server usable', async () => {
    const { manager } = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const controller = new AbortController();
    const progress: number[] = [];
    const call = manager.callTool(
      'fixture',
      'sleep',
      { ms: 10_000 },
      { signal: controller.signal, onProgress: (update) => progress.push(update.progress) },
    );
    await waitFor(() => progress.length >= 2, 'progress before cancelling');
    controller.abort(new Error('user cancelled'));
    await expect(call).rejects.toThrow('user cancelled');
    expect(stateOf(manager, 'fixture')).toBe('running');
    expect((await manager.callTool('fixture', 'echo', { message: 'after' })).content).toEqual([
      { type: 'text', text: 'Echo: after' },
    ]);
  });

  it('health-checks running and failed servers', async () => {
    const { manager } = createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      bad: fixtureServer('exit-immediately-server.mjs'),
    });
    await manager.startAll();
    const health = await manager.healthCheck();
    const good = health.find((entry) => entry.id === 'good');
    expect(good?.ok).toBe(true);
    expect(good?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(health.find((entry) => entry.id === 'bad')).toEqual({ id: 'bad', ok: false, error: 'not running (failed)' });
  });

  it('drains stderr into the log with the server id', async () => {
    const { manager, records } = createManager({ talker: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    await waitFor(
      () => records.some((record) => record.fields.line === 'fixture: ready'),
      'the stderr line in the log',
    );
    const line = records.find((record) => record.fields.line === 'fixture: ready');
    expect(line).toMatchObject({ level: 'debug', message: 'stderr', fields: { server: 'talker' } });
  });
});
