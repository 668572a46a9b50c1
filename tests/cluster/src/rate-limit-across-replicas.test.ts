/**
 * Issue 24, "Done when": limits hold across replicas. With `--rate-limit N` on every replica and their windows in the
 * shared store (README, "Scale-out"), N + k requests of one token, spread by HAProxy over three replicas, get exactly
 * k answers 429 — not 3 × N allowed, as separate replicas would.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ClusterRig, startClusterRig } from './cluster-rig.js';
import { modernRequest } from './modern-requests.js';

const limit = 12;
const over = 7;
let rig: ClusterRig;

beforeAll(async () => {
  rig = await startClusterRig({ rateLimitPerMinute: limit });
});

afterAll(async () => {
  await rig?.close();
});

it(`answers exactly ${over} of ${limit + over} requests 429 when they are spread over three replicas`, async () => {
  const statuses: number[] = [];
  const replicas = new Set<string>();
  for (let index = 0; index < limit + over; index += 1) {
    const answer = await modernRequest(rig.url, rig.authorization, 'tools/call', {
      name: 'fixture__echo',
      arguments: { message: `r${index}` },
    });
    statuses.push(answer.status);
    if (answer.replica !== undefined) replicas.add(answer.replica);
  }
  expect([...replicas].sort()).toEqual(['replica-0', 'replica-1', 'replica-2']);
  expect(statuses.filter((status) => status === 429)).toHaveLength(over);
  expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
  // The first N pass, the rest are refused: one window, not three.
  expect(
    statuses.slice(0, limit).every((status) => status === 200),
    JSON.stringify(statuses),
  ).toBe(true);
});
