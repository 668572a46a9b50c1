import { connect, createServer, type Socket } from 'node:net';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { type Logger, silentLogger } from '@search-mcp/shared';
import { startRedisServer } from '@search-mcp/test-kit/redis';
import { describe, expect, it, vi } from 'vitest';
import { ClusterTaskRecords, type ClusterTaskRecordsOptions } from './cluster-task-records.js';
import type { TaskRecord } from './task-record.js';
import { TaskTable } from './task-table.js';

// The records of one replica's tasks, without a backend process: its gateway answers as a backend whose task is still
// working, and gives a fixed result once asked (the cases here are about the store, not the backend).
const gateway: ClusterTaskRecordsOptions['gateway'] = {
  getTask: async () => ({ taskId: 'backend-1', status: 'working' }),
  getTaskResult: async () => ({ content: [{ type: 'text', text: 'the result' }] }),
};

function replica(
  store: ClusterStore,
  tasks = new TaskTable(),
  heartbeat?: { ttlMs: number; intervalMs: number },
  logger: Logger = silentLogger,
) {
  return new ClusterTaskRecords({ store, gateway, tasks, logger, ...(heartbeat ? { heartbeat } : {}) });
}

/** A logger that tells when the replica's own heartbeat refresh failed (it has seen the store go away). */
function heartbeatFailures(): { logger: Logger; next: () => Promise<void> } {
  let waiters: Array<() => void> = [];
  const logger: Logger = {
    ...silentLogger,
    debug: (message) => {
      if (message !== 'could not refresh the replica heartbeat') return;
      for (const resolve of waiters) resolve();
      waiters = [];
    },
    child: () => logger,
  };
  return { logger, next: () => new Promise<void>((resolve) => waiters.push(resolve)) };
}

/**
 * A TCP gate in front of Redis for one replica: while shut, its connections are cut and new ones refused, so that
 * replica stays cut off after Redis is back (a replica whose refresh comes late).
 */
async function redisGate(redisUrl: string) {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    shut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    open() {
      open = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function runningTask(records: ClusterTaskRecords, tasks: TaskTable) {
  const task = tasks.add('everything', 'backend-1', { owner: 'ann', sessionKey: 'session' }, 60_000);
  await records.created(task, { taskId: 'backend-1', status: 'working', pollInterval: 60_000 });
  return task;
}

describe('cluster task records around store trouble', () => {
  it('a task that ended is never overwritten: a "failed" another replica recorded stays, the late end is dropped', async () => {
    const store = createMemoryClusterStore();
    const tasksA = new TaskTable();
    const a = replica(store, tasksA);
    const b = replica(createMemoryClusterStore({ sameStateAs: store }));
    try {
      const task = await runningTask(a, tasksA);
      const seen = await b.read(task.exposedId, 'ann');
      expect(seen).toMatchObject({ running: true, record: { status: 'working' } });
      // Another replica gave the task up (as one does when the heartbeat of A looked gone).
      const failed: TaskRecord = { ...(seen?.record as TaskRecord), status: 'failed', statusMessage: 'gone' };
      await store.setRecord(`task/${task.exposedId}`, failed, { ttlMs: 60_000 });
      a.noteStatus(task, { taskId: 'backend-1', status: 'completed' });
      await a.close();
      expect(await b.read(task.exposedId, 'ann')).toEqual({ running: false, record: failed });
    } finally {
      await Promise.all([a.close(), b.close()]);
      await store.close();
    }
  });

  it('after a Redis outage longer than the heartbeat ttl, a running task is not failed; it ends as it ends', async () => {
    const redis = await startRedisServer({ appendOnly: true });
    const gateA = await redisGate(redis.url);
    // Commands fail within 2 s while Redis is away (the outage is seen soon), and the first connection has as long: 300 ms
    // was once too short for it on a machine running two suites at once.
    const storeA = await createRedisClusterStore({ url: gateA.url, connectTimeoutMs: 2000 });
    const storeB = await createRedisClusterStore({ url: redis.url, connectTimeoutMs: 2000 });
    const heartbeat = { ttlMs: 1000, intervalMs: 700 };
    const tasksA = new TaskTable();
    const a = replica(storeA, tasksA, heartbeat);
    const failuresB = heartbeatFailures();
    const b = replica(storeB, new TaskTable(), heartbeat, failuresB.logger);
    try {
      const task = await runningTask(a, tasksA);
      expect(await b.read(task.exposedId, 'ann')).toMatchObject({ running: true });

      gateA.shut();
      // A's beats no longer reach Redis: its key expires within the ttl, before the outage as B sees it.
      await vi.waitFor(async () => expect(await storeB.getRecord(`replica/${a.replicaId}/alive`)).toBeUndefined(), {
        timeout: 10_000,
        interval: 50,
      });
      const outageSeenByB = failuresB.next();
      await redis.stopProcess();
      // The outage lasts until B's own refresh has failed: B knows its store was away.
      await outageSeenByB;
      await redis.start();
      // B is back, A not yet (its key stays missing): B's reads do not declare A gone.
      const after = await vi.waitFor(() => b.read(task.exposedId, 'ann'), { timeout: 10_000, interval: 50 });
      expect(after).toMatchObject({ running: true, record: { status: 'working' } });
      expect(await storeB.getRecord(`replica/${a.replicaId}/alive`)).toBeUndefined();
      gateA.open();
      await vi.waitFor(async () => expect(await storeB.getRecord(`replica/${a.replicaId}/alive`)).toBeDefined(), {
        timeout: 10_000,
        interval: 50,
      });
      expect(await b.read(task.exposedId, 'ann')).toMatchObject({ running: true });

      a.noteStatus(task, { taskId: 'backend-1', status: 'completed' });
      await vi.waitFor(
        async () =>
          expect(await b.read(task.exposedId, 'ann')).toMatchObject({
            running: false,
            record: { status: 'completed', result: { content: [{ type: 'text', text: 'the result' }] } },
          }),
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([storeA.close(), storeB.close()]);
      await gateA.close();
      await redis.stop();
    }
  }, 30_000);
});
