import type { ServerStatus } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { FakeManager, listenerAdded } from '../test/search-mcp-test-server.js';
import {
  expectedWithin,
  serverIdOf,
  startingServerIds,
  waitForServer,
  waitForStartingServers,
} from './starting-servers.js';

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

describe('serverIdOf', () => {
  it('finds the server a name points at, in every key form, up to its first separator', () => {
    for (const name of ['slow:echo', 'slow.echo', 'slow__echo']) expect(serverIdOf(name)).toBe('slow');
    for (const name of ['my-server:echo', 'my-server.echo', 'my-server__echo', 'my-server:a.b'])
      expect(serverIdOf(name)).toBe('my-server');
    expect(serverIdOf('db-2:run:now')).toBe('db-2');
  });

  it('finds none in a name of no key form', () => {
    // No separator, a separator first, and a name no server id can start (ids are `a-z0-9-`).
    for (const name of ['slowecho', ':echo', '__echo', 'Slow:echo', 'my_server:echo', 'tool_discovery'])
      expect(serverIdOf(name)).toBeUndefined();
  });
});

describe('waitForServer', () => {
  it('waits for the one server until it is no longer starting, telling of the wait', async () => {
    const manager = new FakeManager();
    const signal = new AbortController().signal;
    manager.states = [starting('slower'), { ...starting('slow'), state: 'failed', lastError: 'exit 1' }];
    // Not starting: its status at once (were it waited for, this would hang).
    expect((await waitForServer(manager, 'slow', { limitMs: 60_000, signal }))?.lastError).toBe('exit 1');
    expect(manager.listenerCount('status-change')).toBe(0);
    const heard: string[] = [];
    const listening = listenerAdded(manager, 'status-change');
    const waiting = waitForServer(manager, 'slower', {
      limitMs: 60_000,
      signal,
      onWait: ({ status }) => heard.push(status.state),
    });
    await listening;
    manager.emit('status-change');
    manager.states = [{ ...starting('slower'), state: 'running' }];
    manager.emit('status-change');
    expect((await waiting)?.state).toBe('running');
    expect(heard).toEqual(['starting']);
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('ends when the request is cancelled', async () => {
    const manager = new FakeManager();
    manager.states = [starting('stuck')];
    const controller = new AbortController();
    const listening = listenerAdded(manager, 'status-change');
    const waiting = waitForServer(manager, 'stuck', { limitMs: 60_000, signal: controller.signal });
    await listening;
    controller.abort();
    expect((await waiting)?.state).toBe('starting');
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('gives up after the limit with the server still starting', async () => {
    const manager = new FakeManager();
    manager.states = [starting('stuck')];
    const status = await waitForServer(manager, 'stuck', { limitMs: 20, signal: new AbortController().signal });
    expect(status?.state).toBe('starting');
    expect(manager.listenerCount('status-change')).toBe(0);
  });
});
