import type { ServerStatus } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { FakeManager, listenerAdded } from '../test/search-mcp-test-server.js';
import { expectedWithin, startingServerIds, waitForServerOf, waitForStartingServers } from './starting-servers.js';

const starting = (id: string, connectMs?: number): ServerStatus => ({
  id,
  state: 'starting',
  toolCount: 0,
  restarts: 0,
  ...(connectMs !== undefined ? { connectMs } : {}),
});

describe('expectedWithin', () => {
  it('expects a server never connected yet, and one whose last connect fits the limit', () => {
    const expected = expectedWithin(1000);
    expect(expected(starting('new'))).toBe(true);
    expect(expected(starting('fast', 300))).toBe(true);
    expect(expected(starting('exact', 1000))).toBe(true);
    expect(expected(starting('slow', 1001))).toBe(false);
  });
});

describe('waitForStartingServers', () => {
  it('does not wait for a server known to start slower than the limit', async () => {
    const manager = new FakeManager();
    manager.states = [starting('slow', 120_000)];
    // Were it waited for, this would hang until the test's own timeout: nothing ever changes its state.
    await waitForStartingServers(manager, 60_000, new AbortController().signal, expectedWithin(60_000));
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('waits for the servers the filter keeps, until they are no longer starting', async () => {
    const manager = new FakeManager();
    manager.states = [starting('fresh'), starting('slow', 120_000)];
    const listening = listenerAdded(manager, 'status-change');
    const waiting = waitForStartingServers(manager, 60_000, new AbortController().signal, expectedWithin(60_000));
    await listening;
    // `fresh` is running; `slow` still starts, but it is not waited for (the wait would otherwise hang).
    manager.states = [{ ...starting('fresh'), state: 'running' }, starting('slow', 120_000)];
    manager.emit('status-change');
    await waiting;
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('returns at once for a request already cancelled', async () => {
    const manager = new FakeManager();
    manager.states = [starting('fresh')];
    const controller = new AbortController();
    controller.abort();
    await waitForStartingServers(manager, 60_000, controller.signal);
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('names the starting servers', () => {
    const manager = new FakeManager();
    manager.states = [starting('a'), { ...starting('b'), state: 'running' }, starting('c')];
    expect(startingServerIds(manager)).toEqual(['a', 'c']);
    expect(startingServerIds(undefined)).toEqual([]);
  });
});

describe('waitForServerOf', () => {
  it('waits for the one server the name points at, in every key form, and for no other', async () => {
    const manager = new FakeManager();
    const signal = new AbortController().signal;
    manager.states = [starting('slower'), { ...starting('slow'), state: 'failed' }];
    // Neither names a starting server: `slow` failed, and `slower` is not `slow` (were it waited for, this hangs).
    for (const name of ['slow:echo', 'slow.echo', 'slow__echo', 'slowecho', 'other:echo']) {
      await waitForServerOf(manager, name, 60_000, signal);
    }
    expect(manager.listenerCount('status-change')).toBe(0);
    for (const name of ['slower:echo', 'slower.echo', 'slower__echo']) {
      const listening = listenerAdded(manager, 'status-change');
      const waiting = waitForServerOf(manager, name, 60_000, signal);
      await listening;
      manager.states = [{ ...starting('slower'), state: 'running' }];
      manager.emit('status-change');
      await waiting;
      expect(manager.listenerCount('status-change')).toBe(0);
      manager.states = [starting('slower')];
    }
  });
});
