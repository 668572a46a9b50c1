import { describe, expect, it } from 'vitest';
import { connect, FakeManager, listenerAdded } from '../../test/search-mcp-test-server.js';

describe('the first tools/list while servers are still connecting', () => {
  it('waits for them in proxy mode (bounded), and only the first listing waits', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    const { client } = await connect({ manager, mode: 'proxy', startupWaitMs: 60_000 });
    let answered = false;
    const waiting = listenerAdded(manager, 'status-change');
    const listing = client.listTools().then((result) => {
      answered = true;
      return result;
    });
    await waiting;
    expect(answered).toBe(false);
    manager.states = [{ id: 'fs', state: 'running' } as never];
    manager.emit('status-change');
    const { tools } = await listing;
    expect(tools.map((tool) => tool.name)).toContain('local__echo');
    // Later listings answer at once, even while a server is starting again (list_changed tells of changes).
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    await client.listTools();
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('gives up waiting after the start-up wait and lists what is connected', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    const { client } = await connect({ manager, mode: 'proxy', startupWaitMs: 50 });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('local__echo');
  });

  it('refuses a cursor: the list is one page', async () => {
    const { client } = await connect({ mode: 'proxy' });
    await expect(client.listTools({ cursor: 'abc' })).rejects.toMatchObject({ code: -32602 });
  });
});
