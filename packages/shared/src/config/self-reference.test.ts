import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';
import { searchMcpInvocation } from './self-reference.js';

describe('searchMcpInvocation', () => {
  it('finds Search MCP run directly, through npx, or from a built clone', () => {
    expect(searchMcpInvocation('search-mcp', ['serve'])).toBe('search-mcp');
    expect(searchMcpInvocation('/usr/local/bin/search-mcp', [])).toBe('/usr/local/bin/search-mcp');
    expect(searchMcpInvocation('C:\\npm\\search-mcp.cmd', [])).toBe('C:\\npm\\search-mcp.cmd');
    expect(searchMcpInvocation('npx', ['-y', '@search-mcp/cli'])).toBe('@search-mcp/cli');
    expect(searchMcpInvocation('npx', ['-y', '@search-mcp/cli@1.2.3', 'serve'])).toBe('@search-mcp/cli@1.2.3');
    expect(searchMcpInvocation('npx', ['search-mcp@latest'])).toBe('search-mcp@latest');
    expect(searchMcpInvocation('pnpm', ['dlx', '@search-mcp/stdio-server'])).toBe('@search-mcp/stdio-server');
    expect(searchMcpInvocation('node', ['/src/search-mcp/apps/stdio-server/dist/cli.js', 'serve'])).toBe(
      '/src/search-mcp/apps/stdio-server/dist/cli.js',
    );
    expect(searchMcpInvocation('node', ['apps\\stdio-server\\dist\\cli.js'])).toBe('apps\\stdio-server\\dist\\cli.js');
  });

  it('finds an installed package run by path, as init writes it when search-mcp is not on PATH', () => {
    const scoped = '/home/me/.npm/_npx/1f2e/node_modules/@search-mcp/cli/dist/cli.js';
    expect(searchMcpInvocation('node', [scoped, 'serve'])).toBe(scoped);
    expect(searchMcpInvocation(scoped, [])).toBe(scoped);
    const unscoped = '/usr/lib/node_modules/search-mcp/dist/cli.js';
    expect(searchMcpInvocation('node', [unscoped])).toBe(unscoped);
    const legacy = '/opt/app/node_modules/@search-mcp/stdio-server/dist/cli.js';
    expect(searchMcpInvocation('node', [legacy])).toBe(legacy);
    const windows = 'C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\@search-mcp\\cli\\dist\\cli.js';
    expect(searchMcpInvocation('node.exe', [windows])).toBe(windows);
    const windowsUnscoped = 'C:\\npm\\node_modules\\search-mcp\\dist\\cli.js';
    expect(searchMcpInvocation('node', [windowsUnscoped])).toBe(windowsUnscoped);
  });

  it('leaves other servers alone, however alike their names', () => {
    expect(searchMcpInvocation('npx', ['-y', '@modelcontextprotocol/server-everything'])).toBeUndefined();
    expect(searchMcpInvocation('npx', ['-y', 'search-mcp-server-brave'])).toBeUndefined();
    expect(searchMcpInvocation('npx', ['-y', '@search-mcp/catalog'])).toBeUndefined();
    expect(searchMcpInvocation('search-mcp-http', [])).toBeUndefined();
    expect(searchMcpInvocation('node', ['apps/stdio-server/dist/other.js'])).toBeUndefined();
    expect(searchMcpInvocation('node', ['search-mcp@'])).toBeUndefined();
    expect(searchMcpInvocation('node', ['/x/node_modules/@search-mcp/http/dist/cli.js'])).toBeUndefined();
    expect(searchMcpInvocation('node', ['/x/node_modules/search-mcp-server-brave/dist/cli.js'])).toBeUndefined();
    expect(searchMcpInvocation('node', ['/x/node_modules/@search-mcp/cli/dist/other.js'])).toBeUndefined();
    expect(searchMcpInvocation('node', ['/x/node_modules/other/node_modules-search-mcp/dist/cli.js'])).toBeUndefined();
  });
});

describe('parseConfig: an entry that runs Search MCP itself', () => {
  it('is skipped with a warning, the others kept', () => {
    const config = parseConfig(
      {
        mcpServers: {
          'search-mcp': { command: 'npx', args: ['-y', '@search-mcp/cli'] },
          clone: { command: 'node', args: ['${REPO}/apps/stdio-server/dist/cli.js', 'serve'] },
          installed: { command: 'node', args: ['/home/me/.npm/_npx/1f2e/node_modules/@search-mcp/cli/dist/cli.js'] },
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        },
      },
      { env: { REPO: '/src/search-mcp' } },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['files']);
    expect(config.warnings).toEqual([
      'mcpServers["search-mcp"]: skipped: it runs Search MCP itself ("@search-mcp/cli"), which would start itself',
      'mcpServers.clone: skipped: it runs Search MCP itself ("/src/search-mcp/apps/stdio-server/dist/cli.js"), ' +
        'which would start itself',
      'mcpServers.installed: skipped: it runs Search MCP itself ' +
        '("/home/me/.npm/_npx/1f2e/node_modules/@search-mcp/cli/dist/cli.js"), which would start itself',
    ]);
  });
});
