import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerState, ServerStatus } from '@search-mcp/shared';
import { afterEach } from 'vitest';
import { McpClientManager, type McpClientManagerOptions } from '../src/index.js';
import { createRecordingLogger } from './test-support.js';

/**
 * Managers for one test file, with fast test settings (short grace, short backoff) and a recording logger; every
 * manager and temporary directory is closed and removed after each test.
 */
export function useManagers(): Managers {
  const managers = createManagers();
  afterEach(() => managers.close());
  return managers;
}

export type Managers = ReturnType<typeof createManagers>;

/** The managers and temporary directories of one test (or of one concurrent test), closed and removed by `close()`. */
export function createManagers() {
  const managers: McpClientManager[] = [];
  const directories: string[] = [];
  return {
    createManager(mcpServers: Record<string, unknown>, options: McpClientManagerOptions = {}) {
      const recording = createRecordingLogger();
      const manager = new McpClientManager({ mcpServers } as never, {
        logger: recording.logger,
        shutdownGraceMs: 300,
        restartPolicy: { initialDelayMs: 50, maxDelayMs: 200 },
        ...options,
      });
      managers.push(manager);
      return { manager, records: recording.records };
    },
    async temporaryDirectory(prefix: string): Promise<string> {
      const directory = await mkdtemp(join(tmpdir(), prefix));
      directories.push(directory);
      return directory;
    },
    async close(): Promise<void> {
      await Promise.all(managers.splice(0).map((manager) => manager.close()));
      await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
    },
  };
}

export function statusOf(manager: McpClientManager, id: string): ServerStatus | undefined {
  return manager.status().find((status) => status.id === id);
}

export function stateOf(manager: McpClientManager, id: string): ServerState | undefined {
  return statusOf(manager, id)?.state;
}

export function pidOf(manager: McpClientManager, id: string): number {
  const pid = statusOf(manager, id)?.pid;
  if (pid === undefined) throw new Error(`${id} has no pid`);
  return pid;
}

/**
 * Resolves once server `id` is in `state` (at once when it already is), on the manager's `status-change` event: no
 * budget of its own, so a busy machine only makes it later (the test's own timeout still bounds it).
 */
export function stateReached(manager: McpClientManager, id: string, state: ServerState): Promise<void> {
  if (stateOf(manager, id) === state) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = (status: ServerStatus) => {
      if (status.id !== id || status.state !== state) return;
      manager.off('status-change', listener);
      resolve();
    };
    manager.on('status-change', listener);
  });
}
