/**
 * Issue 24, "Done when": tasks started on a replica that is then SIGKILLed are still readable from the others (tasks
 * and their results live in the shared store: README, "Scale-out"). The task starts through HAProxy; the answer's
 * `X-Search-Mcp-Replica` header says which replica made it, and that one is killed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterRig, startClusterRig } from './cluster-rig.js';
import { resultText } from './modern-requests.js';
import { getTask, startJob, waitForTaskEnd } from './modern-tasks.js';

let rig: ClusterRig;

beforeAll(async () => {
  rig = await startClusterRig();
});

afterAll(async () => {
  await rig?.close();
});

const indexOf = (replica: string | undefined) => Number(/^replica-(\d)$/.exec(replica ?? '')?.[1] ?? Number.NaN);

describe('a task whose replica is SIGKILLed', () => {
  const finished = { taskId: '', replica: Number.NaN };
  const unfinished = { taskId: '', replica: Number.NaN };

  beforeAll(async () => {
    // One that completes before the kill, one still working when its replica dies (10 s of steps): started on the
    // same replica, which is then killed.
    const first = await startJob(rig.url, rig.authorization, { steps: 2, stepMs: 20 });
    finished.taskId = first.taskId;
    finished.replica = indexOf(first.replica);
    const ended = await waitForTaskEnd(rig.replicaUrls[finished.replica] ?? '', rig.authorization, first.taskId);
    expect(ended.result?.status, ended.text).toBe('completed');
    for (let attempt = 0; attempt < 6 && Number.isNaN(unfinished.replica); attempt += 1) {
      const second = await startJob(rig.url, rig.authorization, { steps: 200, stepMs: 50 });
      if (indexOf(second.replica) === finished.replica)
        Object.assign(unfinished, { taskId: second.taskId, replica: finished.replica });
    }
    expect(unfinished.replica, 'round robin brought no second task to the same replica').toBe(finished.replica);
    await rig.killReplica(finished.replica);
    await rig.waitForBalancer([0, 1, 2].filter((index) => index !== finished.replica));
  });

  it('its result, completed before the kill, is read from every other replica and through the balancer', async () => {
    const others = rig.replicaUrls.filter((_url, index) => index !== finished.replica);
    for (const url of [...others, rig.url, rig.url]) {
      const answer = await getTask(url, rig.authorization, finished.taskId);
      expect(answer.error, `${url}: ${answer.text}`).toBeUndefined();
      expect(answer.result).toMatchObject({ taskId: finished.taskId, status: 'completed' });
      expect(resultText(answer.result?.result as Record<string, unknown> | undefined)).toBe('job done after 2 steps');
    }
  });

  it('one still working when its replica died is readable from the others, then reads failed once its heartbeat is gone', async () => {
    const others = rig.replicaUrls.filter((_url, index) => index !== unfinished.replica);
    for (const url of others) {
      const answer = await getTask(url, rig.authorization, unfinished.taskId);
      expect(answer.error, `${url}: ${answer.text}`).toBeUndefined();
      expect(answer.result).toMatchObject({ taskId: unfinished.taskId, status: expect.any(String) });
    }
    // packages/server README: a task whose replica stopped (heartbeat gone, 10 s) reads failed, saying so.
    const ended = await waitForTaskEnd(others[0] ?? '', rig.authorization, unfinished.taskId, 30_000);
    expect(ended.result, ended.text).toMatchObject({ taskId: unfinished.taskId, status: 'failed' });
    expect(String(ended.result?.statusMessage)).toContain('stopped');
  });
});
