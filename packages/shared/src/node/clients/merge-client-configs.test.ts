import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { type FoundClientConfig, mergeClientConfigs } from '../../node.js';

function file(
  client: FoundClientConfig['client'],
  servers: Record<string, Record<string, unknown>>,
  extra: Partial<FoundClientConfig> = {},
): FoundClientConfig {
  const serverListPath = client === 'vscode' ? ['servers'] : ['mcpServers'];
  return { client, scope: 'user', path: `/home/me/${client}.json`, serverListPath, servers, problems: [], ...extra };
}

const github = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
const memory = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };
const SECRET = 'ghp_0123456789abcdefSECRET';

describe('mergeClientConfigs', () => {
  it('keeps one server for the same command and args found in several clients', () => {
    const merged = mergeClientConfigs(
      [
        file('claude-desktop', { github: { ...github, env: { GITHUB_TOKEN: SECRET } }, memory }),
        file('claude-code', { github: { type: 'stdio', ...github, env: { GITHUB_TOKEN: SECRET } } }),
        file('vscode', { github: { type: 'stdio', ...github, env: { GITHUB_TOKEN: SECRET } } }),
      ],
      { environment: {} },
    );
    expect(merged.config).toEqual({
      mcpServers: { github: { ...github, env: { GITHUB_TOKEN: SECRET } }, memory },
    });
    expect(merged.warnings).toEqual([]);
    expect(merged.origins['github']?.map((origin) => origin.client)).toEqual([
      'claude-desktop',
      'claude-code',
      'vscode',
    ]);
    expect(merged.origins['memory']).toEqual([
      { client: 'claude-desktop', scope: 'user', path: '/home/me/claude-desktop.json', name: 'memory' },
    ]);
  });

  it('keeps one server under the first name when two clients name it differently, and says so', () => {
    const merged = mergeClientConfigs([file('claude-desktop', { gh: github }), file('cursor', { github })], {
      environment: {},
    });
    expect(Object.keys(merged.config.mcpServers)).toEqual(['gh']);
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers.github: the same server as "gh" from Claude Desktop /home/me/claude-desktop.json; kept once',
    ]);
    expect(merged.origins['gh']?.map((origin) => origin.name)).toEqual(['gh', 'github']);
  });

  it('names the settings that differ between copies of one server, never their values', () => {
    const merged = mergeClientConfigs(
      [
        file('claude-desktop', { github: { ...github, env: { GITHUB_TOKEN: SECRET, LOG: 'debug' } } }),
        file('cursor', {
          github: { ...github, env: { GITHUB_TOKEN: 'ghp_other_token_value_123', LOG: 'debug' }, cwd: '/srv' },
        }),
        file('windsurf', { remote: { serverUrl: 'https://h/mcp', headers: { Authorization: `Bearer ${SECRET}` } } }),
        file('vscode', {
          remote: { type: 'http', url: 'https://h/mcp', headers: { Authorization: 'Bearer other-one' } },
        }),
      ],
      { environment: {} },
    );
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers.github: its env (GITHUB_TOKEN), cwd differ from "github" from ' +
        'Claude Desktop /home/me/claude-desktop.json, whose settings are kept',
      'VS Code /home/me/vscode.json: servers.remote: its headers (Authorization) differ from "remote" from ' +
        'Windsurf /home/me/windsurf.json, whose settings are kept',
    ]);
    expect(merged.config.mcpServers['github']).toEqual({ ...github, env: { GITHUB_TOKEN: SECRET, LOG: 'debug' } });
    expect(merged.warnings.join('\n')).not.toMatch(/SECRET|other_token|other-one|debug/);
  });

  it('gives a different server met under a taken name the id <name>-<client>, and says so', () => {
    const merged = mergeClientConfigs(
      [
        file('claude-desktop', { github }),
        file('cursor', { GitHub: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'] } }),
        file(
          'cursor',
          { github: { url: 'https://api.githubcopilot.com/mcp/' } },
          { scope: 'project', path: '/p/.cursor/mcp.json' },
        ),
      ],
      { environment: {} },
    );
    expect(Object.keys(merged.config.mcpServers)).toEqual(['github', 'github-cursor', 'github-cursor-2']);
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers.GitHub: another server is already called "github" (from Claude Desktop ' +
        '/home/me/claude-desktop.json); kept as "github-cursor"',
      'Cursor /p/.cursor/mcp.json: mcpServers.github: another server is already called "github" (from Claude Desktop ' +
        '/home/me/claude-desktop.json); kept as "github-cursor-2"',
    ]);
    const config = parseConfig(merged.config, { env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['github', 'github-cursor', 'github-cursor-2']);
    expect(config.warnings).toEqual([]);
  });

  it('keeps a renamed id within the 32 characters of a server id', () => {
    const long = 'a-very-long-server-name-of-thirty';
    const merged = mergeClientConfigs(
      [file('cursor', { [long]: github }), file('claude-desktop', { [long]: memory })],
      {
        environment: {},
      },
    );
    const renamed = Object.keys(merged.config.mcpServers)[1] ?? '';
    expect(renamed).toBe('a-very-long-serve-claude-desktop');
    expect(renamed).toHaveLength(32);
    expect(Object.keys(parseConfig(merged.config, { env: {} }).mcpServers)).toHaveLength(2);
  });

  it('drops entries that run Search MCP itself, with the parser warning, also behind a variable', () => {
    const merged = mergeClientConfigs(
      [
        file('claude-desktop', {
          'search-mcp': { command: 'npx', args: ['-y', '@search-mcp/cli'] },
          clone: { command: 'node', args: ['${REPO}/apps/stdio-server/dist/cli.js'] },
          launcher: { command: '${SEARCH_MCP_BIN}', args: [] },
          memory,
        }),
      ],
      { environment: { REPO: '/src/search-mcp', SEARCH_MCP_BIN: '/usr/local/bin/search-mcp' } },
    );
    expect(Object.keys(merged.config.mcpServers)).toEqual(['memory']);
    expect(merged.warnings).toEqual([
      'Claude Desktop /home/me/claude-desktop.json: mcpServers["search-mcp"]: skipped: it runs Search MCP itself ' +
        '("@search-mcp/cli"), which would start itself',
      'Claude Desktop /home/me/claude-desktop.json: mcpServers.clone: skipped: it runs Search MCP itself ' +
        '("/src/search-mcp/apps/stdio-server/dist/cli.js"), which would start itself',
      'Claude Desktop /home/me/claude-desktop.json: mcpServers.launcher: skipped: it runs Search MCP itself ' +
        '("/usr/local/bin/search-mcp"), which would start itself',
    ]);
  });

  it("writes other clients' words as ours and finds a Windsurf serverUrl equal to a url", () => {
    const merged = mergeClientConfigs(
      [
        file('windsurf', {
          remote: { serverUrl: 'https://h/mcp' },
          off: { ...memory, disabled: true, disabledTools: ['delete_entities'] },
        }),
        file('cursor', { 'remote-copy': { url: 'https://h/mcp/' } }),
      ],
      { environment: {} },
    );
    expect(merged.config.mcpServers).toEqual({
      remote: { url: 'https://h/mcp' },
      off: { ...memory, enabled: false, toolPermissions: { delete_entities: false } },
    });
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers["remote-copy"]: the same server as "remote" from Windsurf ' +
        '/home/me/windsurf.json; kept once',
    ]);
  });

  it('keeps an entry the dialect mapping finds wrong as written, and says why', () => {
    const written = { url: 'https://a/mcp', serverUrl: 'https://b/mcp', headers: { Authorization: SECRET } };
    const merged = mergeClientConfigs([file('windsurf', { both: written })], { environment: {} });
    expect(merged.config.mcpServers['both']).toEqual(written);
    expect(merged.warnings).toEqual([
      'Windsurf /home/me/windsurf.json: mcpServers.both: kept as written, it will show as failed: ' +
        'mcpServers.both.serverUrl: differs from "url": keep one of them',
    ]);
    expect(parseConfig(merged.config, { env: {} }).mcpServers['both']?.configError).toBe(
      'mcpServers.both.serverUrl: differs from "url": keep one of them',
    );
  });

  it('passes on the warning of contradicting switches', () => {
    const merged = mergeClientConfigs([file('cursor', { both: { ...memory, enabled: true, disabled: true } })], {
      environment: {},
    });
    expect(merged.config.mcpServers['both']).toEqual({ ...memory, enabled: false });
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers.both.disabled: contradicts "enabled"; the server is not started',
    ]);
  });

  it('gives a name that cannot be an id a usable one', () => {
    const merged = mergeClientConfigs([file('cursor', { '...': memory })], { environment: {} });
    expect(Object.keys(merged.config.mcpServers)).toEqual(['server-cursor']);
    expect(merged.warnings).toEqual([
      'Cursor /home/me/cursor.json: mcpServers["..."]: the name cannot be made into a server id (it needs a letter ' +
        'or digit); kept as "server-cursor"',
    ]);
  });

  it('merges into an existing config: its servers first and unchanged, its sections kept', () => {
    const base = {
      mcpServers: { files: { command: 'npx', args: ['-y', 'server-filesystem', '/data'] }, github },
      exposure: { mode: 'proxy' },
      search: { strategy: 'bm25' },
    };
    const merged = mergeClientConfigs(
      [file('claude-desktop', { memory, 'gh-desktop': github, files: { command: 'uvx', args: ['files'] } })],
      { base, environment: {} },
    );
    expect(merged.config).toEqual({
      mcpServers: { ...base.mcpServers, memory, 'files-claude-desktop': { command: 'uvx', args: ['files'] } },
      exposure: { mode: 'proxy' },
      search: { strategy: 'bm25' },
    });
    expect(merged.warnings).toEqual([
      'Claude Desktop /home/me/claude-desktop.json: mcpServers["gh-desktop"]: the same server as "github" from the ' +
        'existing config; kept once',
      'Claude Desktop /home/me/claude-desktop.json: mcpServers.files: another server is already called "files" ' +
        '(from the existing config); kept as "files-claude-desktop"',
    ]);
    expect(merged.origins['github']).toEqual([
      { client: 'claude-desktop', scope: 'user', path: '/home/me/claude-desktop.json', name: 'gh-desktop' },
    ]);
    expect(base.mcpServers).not.toHaveProperty('memory');
  });

  it('keeps entries without a command or URL by name, so loading reports them', () => {
    const merged = mergeClientConfigs([file('cursor', { empty: {} }), file('vscode', { empty: { env: {} } })], {
      environment: {},
    });
    expect(Object.keys(merged.config.mcpServers)).toEqual(['empty', 'empty-vscode']);
  });

  it('never prints a secret in any warning', () => {
    const withSecrets = {
      command: 'npx',
      args: ['-y', 'server', `--token=${SECRET}`, `https://user:${SECRET}@h/x`],
      env: { TOKEN: SECRET },
    };
    const merged = mergeClientConfigs(
      [
        file('claude-desktop', { a: withSecrets }),
        file('cursor', {
          b: { ...withSecrets, env: { TOKEN: `${SECRET}-2` } },
          a: { url: `https://h/mcp?key=${SECRET}` },
        }),
        file('windsurf', { c: { serverUrl: `https://h/${SECRET}`, url: `https://h/x?token=${SECRET}` } }),
        file('vscode', { d: { command: 'npx', args: [`--api-key=${SECRET}`], disabled: SECRET } }),
      ],
      { environment: {} },
    );
    expect(merged.warnings.length).toBeGreaterThanOrEqual(4);
    for (const warning of merged.warnings) expect(warning).not.toContain('SECRET');
  });
});
