/**
 * Issue 24, "Done when": with Redis restarted, the replicas reconnect (readiness back to 200) and lose no task or
 * session written before (Redis keeps them in its append-only file; README, "Scale-out").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterRig, startClusterRig } from './cluster-rig.js';
import { type LegacySession, openLegacySession } from './legacy-session.js';
import { isToolSuccess, modernRequest, resultText } from './modern-requests.js';
import { getTask, startJob, waitForTaskEnd } from './modern-tasks.js';

let rig: ClusterRig;

beforeAll(async () => {
  rig = await startClusterRig();
});

afterAll(async () => {
  await rig?.close();
});

/** Waits until every replica's readiness path answers 200 (each replica reconnected to Redis). */
async function everyReplicaReady(timeoutMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await Promise.all(
      rig.replicaUrls.map(async (url) => {
        const response = await fetch(`${url}${rig.healthPath}`);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    if (statuses.every((status) => status === 200) || Date.now() > deadline) return statuses;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Redis restarted under the replicas', () => {
  let taskId = '';
  let session: LegacySession | undefined;
  let sessionError = '';

  beforeAll(async () => {
    // Made and followed on one replica: what is tested here is Redis's restart, not the sharing across replicas
    // (tasks-across-replicas.test.ts); the reads after the restart go to every replica.
    const [first] = rig.replicaUrls;
    const started = await startJob(first ?? '', rig.authorization, { steps: 2, stepMs: 20 });
    taskId = started.taskId;
    const ended = await waitForTaskEnd(first ?? '', rig.authorization, taskId);
    expect(ended.result?.status, ended.text).toBe('completed');
    try {
      session = await openLegacySession(rig.url, rig.authorization, 'legacy-before-restart');
      await session.call('before');
    } catch (error) {
      sessionError = error instanceof Error ? error.message : String(error);
    }
    await rig.restartRedis();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('every replica is ready again, and HAProxy sends to all three', async () => {
    expect(await everyReplicaReady()).toEqual([200, 200, 200]);
    await rig.waitForBalancer([0, 1, 2]);
    for (const url of rig.replicaUrls) {
      const answer = await modernRequest(url, rig.authorization, 'tools/call', {
        name: 'fixture__echo',
        arguments: { message: 'after the restart' },
      });
      expect(isToolSuccess(answer), answer.text).toBe(true);
    }
  });

  it('a task completed before the restart is read, with its result, from every replica', async () => {
    for (const url of rig.replicaUrls) {
      const answer = await getTask(url, rig.authorization, taskId);
      expect(answer.error, `${url}: ${answer.text}`).toBeUndefined();
      expect(answer.result).toMatchObject({ taskId, status: 'completed' });
      expect(resultText(answer.result?.result as Record<string, unknown> | undefined)).toBe('job done after 2 steps');
    }
  });

  it('a 2025 session opened before the restart goes on after at most one retried call', async () => {
    expect(sessionError).toBe('');
    if (session === undefined) throw new Error('no session');
    expect(session.failures).toEqual([]);
    for (let round = 0; round < 6; round += 1) await session.call(`after-${round}`);
    expect(session.failures).toEqual([]);
    expect(session.retried).toBeLessThanOrEqual(1);
  });
});
