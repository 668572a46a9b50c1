/**
 * Issue 24, "Done when": with a replica SIGKILLed mid-load and restarted, 0 lost 2026-07-28 requests (HAProxy
 * retries what the dead replica dropped) and every 2025 session continues on another replica after at most one
 * retried request (the session is resumable on any replica: README, "Scale-out").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterRig, startClusterRig } from './cluster-rig.js';
import { type LegacySession, openLegacySession } from './legacy-session.js';
import { isToolSuccess, modernRequest } from './modern-requests.js';

let rig: ClusterRig;

beforeAll(async () => {
  rig = await startClusterRig();
});

afterAll(async () => {
  await rig?.close();
});

interface ModernTally {
  succeeded: number;
  lost: string[];
  /** Which replica answered, per answer (HAProxy's header), in order. */
  replicas: string[];
}

/** One 2026-07-28 client calling in a loop until `running()` is false: a slow call (60 ms) then a fast one. */
async function modernLoop(worker: number, tally: ModernTally, running: () => boolean): Promise<void> {
  for (let round = 0; running(); round += 1) {
    const call =
      round % 2 === 0
        ? { name: 'fixture__slow', arguments: { steps: 3 } }
        : { name: 'fixture__echo', arguments: { message: `w${worker}-${round}` } };
    try {
      const answer = await modernRequest(rig.url, rig.authorization, 'tools/call', call);
      if (answer.replica !== undefined) tally.replicas.push(answer.replica);
      if (isToolSuccess(answer)) tally.succeeded += 1;
      else tally.lost.push(`${call.name} → ${answer.status} ${answer.text.slice(0, 300)}`);
    } catch (error) {
      tally.lost.push(`${call.name} → ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function legacyLoop(session: LegacySession, prefix: string, running: () => boolean): Promise<void> {
  for (let round = 0; running(); round += 1) await session.call(`${prefix}-${round}`);
}

/** What the run saw, for the assertions below (one mixed run: the kill happens once). */
const modern: ModernTally = { succeeded: 0, lost: [], replicas: [] };
const sessions: LegacySession[] = [];
/** Sessions that could not even be opened through the balancer, with the error. */
const unopened: string[] = [];
/** Indexes into `modern.replicas` of the kill, the restart seen by HAProxy. */
const marks = { beforeKill: 0, killed: 0, restarted: 0 };

describe('a replica SIGKILLed mid-load, then restarted', () => {
  beforeAll(async () => {
    for (const index of [0, 1, 2]) {
      try {
        sessions.push(await openLegacySession(rig.url, rig.authorization, `legacy-${index}`));
      } catch (error) {
        unopened.push(error instanceof Error ? error.message : String(error));
      }
    }
    let phase: 'load' | 'stop' = 'load';
    const running = () => phase === 'load';
    const loops = [
      ...[0, 1, 2, 3].map((worker) => modernLoop(worker, modern, running)),
      ...sessions.map((session, index) => legacyLoop(session, `s${index}`, running)),
    ];
    // Waits for `count` successful 2026 answers in all (the load's own progress, no fixed sleep).
    const answers = async (count: number) => {
      while (modern.succeeded + modern.lost.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      await answers(30);
      marks.beforeKill = modern.replicas.length;
      await rig.killReplica(1);
      await rig.waitForBalancer([0, 2]);
      marks.killed = modern.replicas.length;
      await answers(modern.succeeded + modern.lost.length + 30);
      await rig.startReplica(1);
      await rig.waitForBalancer([0, 1, 2]);
      marks.restarted = modern.replicas.length;
      await answers(modern.succeeded + modern.lost.length + 30);
    } finally {
      phase = 'stop';
      await Promise.all(loops);
      await Promise.all(sessions.map((session) => session.close()));
    }
  });

  it('loses no 2026-07-28 request', () => {
    expect(modern.lost, rig.output().slice(-4000)).toEqual([]);
    expect(modern.succeeded).toBeGreaterThanOrEqual(90);
  });

  it('sent load to replica 1 before the kill, none while it was down, and again once it was back', () => {
    expect(modern.replicas.slice(0, marks.beforeKill)).toContain('replica-1');
    expect(modern.replicas.slice(marks.killed, marks.restarted)).not.toContain('replica-1');
    expect(modern.replicas.slice(marks.restarted)).toContain('replica-1');
  });

  it('keeps every 2025 session going on another replica after at most one retried call', () => {
    expect(unopened).toEqual([]);
    expect(sessions).toHaveLength(3);
    for (const session of sessions) {
      expect(session.failures, `session ${session.sessionId}`).toEqual([]);
      expect(session.retried, `session ${session.sessionId}`).toBeLessThanOrEqual(1);
      expect(session.lastSucceeded).toBe(true);
      expect(session.succeeded).toBeGreaterThan(2);
    }
  });
});
