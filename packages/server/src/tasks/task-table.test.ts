import { describe, expect, it } from 'vitest';
import { TaskTable } from './task-table.js';

describe('TaskTable', () => {
  it('gives tasks ids of its own, found only by their owner', () => {
    const table = new TaskTable();
    const task = table.add('everything', 'backend-1', { owner: 'session-a', sessionKey: 'session-a' }, 60_000);
    expect(task.exposedId).not.toBe('backend-1');
    expect(table.get(task.exposedId, 'session-a')).toBe(task);
    expect(table.get(task.exposedId, 'session-b')).toBeUndefined();
    expect(table.get('backend-1', 'session-a')).toBeUndefined();
    expect(table.byBackendId('everything', 'backend-1')).toBe(task);
    expect(table.byBackendId('other', 'backend-1')).toBeUndefined();
  });

  it('lists only the owner’s tasks and keeps two servers’ equal ids apart', () => {
    const table = new TaskTable();
    const a = table.add('x', 'same', { owner: 'session-a', sessionKey: 'session-a' }, undefined);
    const b = table.add('y', 'same', { owner: 'session-b', sessionKey: 'session-b' }, undefined);
    expect(a.exposedId).not.toBe(b.exposedId);
    expect(table.list('session-a')).toEqual([a]);
    expect(table.list('session-b')).toEqual([b]);
  });

  it('forgets expired tasks and the tasks of a restarted server', () => {
    let now = 1000;
    const table = new TaskTable(() => now);
    const short = table.add('x', 't1', { owner: 'o', sessionKey: 'o' }, 1000);
    const other = table.add('y', 't2', { owner: 'o', sessionKey: 'o' }, 1000);
    const kept = table.add('z', 't3', { owner: 'o', sessionKey: 'o' }, null);
    table.dropServer('y');
    expect(table.get(other.exposedId, 'o')).toBeUndefined();
    now += 1000 + 60_000 + 1;
    expect(table.get(short.exposedId, 'o')).toBeUndefined();
    expect(table.list('o')).toEqual([kept]);
    expect(table.size).toBe(1);
  });
});
