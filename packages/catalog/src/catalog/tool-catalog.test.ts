import { ServerNotRunningError, ToolNotFoundError, ValidationError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { setUp, NoVisibleToolsSource } from '../../test/catalog-test-setup.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRegistry } from '../registry/tool-registry.js';

describe('get and list', () => {
  it('accepts the three key forms and suggests the closest keys for a miss', async () => {
    const { catalog } = setUp();
    for (const key of ['local:echo', 'local.echo', 'local__echo'])
      expect((await catalog.get(key)).toolKey).toBe('local:echo');
    const miss = await catalog.get('local:ecko').catch((error: unknown) => error);
    expect(ToolNotFoundError.isInstance(miss)).toBe(true);
    expect((miss as ToolNotFoundError).suggestions[0]).toBe('local:echo');
    expect((miss as ToolNotFoundError).message).toBe('Tool not found: local:ecko. Did you mean: local:echo?');
    await expect(catalog.get('no separator')).rejects.toThrow(ToolNotFoundError);
  });

  it("names a server's tools when none is close, and the servers when the key names none", async () => {
    const { catalog } = setUp();
    await expect(catalog.get('local:multiply')).rejects.toThrow(
      "Tool not found: local:multiply (MCP server 'local' has: add, echo)",
    );
    const unknownServer = await catalog.execute('nowhere:multiply', {}).catch((error: unknown) => error);
    expect((unknownServer as ToolNotFoundError).message).toBe(
      "Tool not found: nowhere:multiply (no MCP server 'nowhere'; the servers: local)",
    );
    // The same tool on another server is suggestion enough.
    await expect(catalog.get('lokal:echo')).rejects.toThrow('Tool not found: lokal:echo. Did you mean: local:echo?');
  });

  it('filters by server, category and tag', async () => {
    const { catalog } = setUp();
    expect((await catalog.list({ category: 'math' })).map((tool) => tool.toolKey)).toEqual(['local:add']);
    expect((await catalog.list({ tag: 'demo' })).map((tool) => tool.toolKey)).toEqual(['local:echo']);
    expect((await catalog.list({ server: 'local' })).map((tool) => tool.toolKey)).toEqual(['local:add', 'local:echo']);
  });
});

describe('execute', () => {
  it('runs a tool and returns its result', async () => {
    const { catalog } = setUp();
    expect(await catalog.execute('local__add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
  });

  it('validates arguments against the inputSchema and reports every problem', async () => {
    const { catalog } = setUp();
    const failure = await catalog.execute('local:add', { a: 'two' }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues).toEqual([
      { path: 'arguments.b', message: 'is required' },
      { path: 'arguments.a', message: 'must be number' },
    ]);
  });

  it('retries a server that is not running, then reports it', async () => {
    const { catalog, down } = setUp();
    await expect(catalog.execute('fs:read_file', { path: '/x' })).rejects.toThrow("MCP server 'fs' is not running");
    expect(down.calls).toBe(3);
    await expect(catalog.get('fs:read_file')).rejects.toThrow(
      "Tool not found: fs:read_file (MCP server 'fs' is not connected)",
    );
  });

  it('does not forward an unlisted key to a running server that lists no visible tool', async () => {
    const quiet = new NoVisibleToolsSource(['quiet'], 'running');
    const crashed = new NoVisibleToolsSource(['down'], 'crashed');
    const local = new ToolRegistry();
    local.register({ name: 'echo', description: 'Echo a message back' }, () => 'echo');
    const catalog = new ToolCatalog({
      sources: [local, quiet, crashed],
      config: { mcpServers: { quiet: { command: 'quiet-server' }, down: { command: 'down-server' } } },
      executor: { retries: 0 },
    });
    const failure = await catalog.execute('quiet:echo', {}).catch((error: unknown) => error);
    expect(ToolNotFoundError.isInstance(failure)).toBe(true);
    expect((failure as ToolNotFoundError).suggestions).toEqual(['local:echo']);
    expect(quiet.calls).toBe(0);
    await expect(catalog.get('quiet:echo')).rejects.toThrow('Tool not found: quiet:echo. Did you mean: local:echo?');
    // A server that is down is still told about the call (and reconnects); get says it is not connected.
    await expect(catalog.execute('down:anything', {})).rejects.toThrow(ServerNotRunningError);
    expect(crashed.calls).toBe(1);
    await expect(catalog.get('down:anything')).rejects.toThrow(
      "Tool not found: down:anything (MCP server 'down' is not connected)",
    );
  });

  it('says a server the config does not know is not found', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('nowhere:tool', {})).rejects.toThrow(ToolNotFoundError);
  });
});
