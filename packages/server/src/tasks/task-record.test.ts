import { describe, expect, it } from 'vitest';
import { applyStatus, newTaskRecord, settleRecord } from './task-record.js';

const exposed = {
  exposedId: 'ours',
  serverId: 'everything',
  backendTaskId: 'theirs',
  owner: 'ann',
  sessionKey: 'session',
  createdAt: Date.parse('2026-11-28T06:00:00.000Z'),
  expiresAt: Date.parse('2026-11-28T07:00:00.000Z'),
};

describe('task records', () => {
  it('keep what a reader sees, and say when a status changed it', () => {
    const record = newTaskRecord(
      exposed,
      { taskId: 'theirs', status: 'working', ttl: 60_000, pollInterval: 1000 },
      'r1',
    );
    expect(record).toMatchObject({ exposedId: 'ours', owner: 'ann', replicaId: 'r1', status: 'working', ttl: 60_000 });
    expect(record.createdAt).toBe('2026-11-28T06:00:00.000Z');
    expect(applyStatus(record, { taskId: 'theirs', status: 'working' })).toBe(false);
    expect(applyStatus(record, { taskId: 'theirs', status: 'working', statusMessage: 'Gathering sources...' })).toBe(
      true,
    );
    expect(applyStatus(record, { taskId: 'theirs', status: 'completed' })).toBe(true);
    expect(record).toMatchObject({ status: 'completed' });
    expect(record.statusMessage).toBeUndefined();
  });

  it('keep a result within the size limit, and an error saying so for a larger one', () => {
    const record = newTaskRecord(exposed, { status: 'completed' }, 'r1');
    const result = { content: [{ type: 'text', text: 'x'.repeat(100) }] };
    expect(settleRecord(record, { result }, 1000)).toMatchObject({ result });
    const over = settleRecord(record, { result }, 50);
    expect(over.result).toBeUndefined();
    expect(over.error?.message).toMatch(/larger than the 50 bytes the cluster store keeps for a task/);
  });
});
