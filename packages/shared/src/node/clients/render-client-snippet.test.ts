import { describe, expect, it } from 'vitest';
import { renderClientSnippet } from '../../node.js';

const invocation = { command: 'npx', args: ['-y', '@search-mcp/cli'] };

describe('renderClientSnippet', () => {
  it.each(['claude-desktop', 'cursor', 'windsurf'] as const)(
    'gives %s an mcpServers file with Search MCP alone',
    (client) => {
      const snippet = renderClientSnippet(client, invocation);
      expect(snippet).toMatchObject({ client, format: 'json', serverListKey: 'mcpServers' });
      expect(JSON.parse(snippet.text)).toEqual({ mcpServers: { 'search-mcp': invocation } });
      expect(snippet.servers).toEqual({ 'search-mcp': invocation });
      expect(snippet.text.endsWith('}\n')).toBe(true);
    },
  );

  it('gives VS Code a servers list with the stdio type', () => {
    const snippet = renderClientSnippet('vscode', { ...invocation, name: 'search' });
    expect(snippet.serverListKey).toBe('servers');
    expect(JSON.parse(snippet.text)).toEqual({ servers: { search: { type: 'stdio', ...invocation } } });
  });

  it('gives Claude Code the claude mcp lines: remove the servers it replaces, add Search MCP', () => {
    const snippet = renderClientSnippet('claude-code', {
      command: 'npx',
      args: ['-y', '@search-mcp/cli', '--config', '/home/me/My Configs/search.json'],
      replacing: ['github', { name: 'local one', scope: 'local' }],
      platform: 'linux',
    });
    expect(snippet.format).toBe('shell');
    expect(snippet.text).toBe(
      'claude mcp remove --scope user github\n' +
        "claude mcp remove --scope local 'local one'\n" +
        "claude mcp add --scope user search-mcp -- npx -y @search-mcp/cli --config '/home/me/My Configs/search.json'\n",
    );
    expect(snippet.servers).toEqual({
      'search-mcp': {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@search-mcp/cli', '--config', '/home/me/My Configs/search.json'],
      },
    });
  });

  it('quotes for the shell of the platform', () => {
    const posix = renderClientSnippet('claude-code', {
      command: 'node',
      args: ["it's.js"],
      scope: 'project',
      platform: 'darwin',
    });
    expect(posix.text).toBe(`claude mcp add --scope project search-mcp -- node 'it'\\''s.js'\n`);
    const windows = renderClientSnippet('claude-code', {
      command: 'C:\\Program Files\\nodejs\\npx.cmd',
      args: ['C:\\tools\\cli.js', 'a "b"'],
      platform: 'win32',
    });
    expect(windows.text).toBe(
      'claude mcp add --scope user search-mcp -- "C:\\Program Files\\nodejs\\npx.cmd" C:\\tools\\cli.js "a \\"b\\""\n',
    );
  });
});
