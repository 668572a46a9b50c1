import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import type { Issue } from '../errors/issue.js';
import { formatConfigPath } from './config-path.js';
import { configFileSchema } from './config-schema.js';
import { isResolvedConfig, parseConfig, type ParseConfigOptions } from './parse-config.js';
import type { RemoteServerConfig, StdioServerConfig } from './resolved-config.js';

function configError(input: unknown, options?: ParseConfigOptions): ConfigError {
  try {
    parseConfig(input, options);
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected parseConfig to throw a ConfigError');
}

function issuesOf(input: unknown, options?: ParseConfigOptions): Issue[] {
  return [...configError(input, options).issues];
}

/** The `configError` of server `id` (the input must parse: only that server is broken). */
function serverErrorOf(input: unknown, id = 's', options: ParseConfigOptions = { env: {} }): string | undefined {
  const server = parseConfig(input, options).mcpServers[id];
  if (server === undefined) throw new Error(`server ${id} is missing from the result`);
  return server.configError;
}

function stdio(config: ReturnType<typeof parseConfig>, id: string): StdioServerConfig {
  const server = config.mcpServers[id];
  if (server?.transport !== 'stdio') throw new Error(`${id} is not a stdio server`);
  return server;
}

function remote(config: ReturnType<typeof parseConfig>, id: string): RemoteServerConfig {
  const server = config.mcpServers[id];
  if (server === undefined || server.transport === 'stdio') throw new Error(`${id} is not a remote server`);
  return server;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('parseConfig: Claude Desktop / Cursor configs', () => {
  const claudeDesktopConfig = {
    globalShortcut: 'Ctrl+Space',
    preferences: { theme: 'dark' },
    mcpServers: {
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
        autoApprove: ['read_file'],
        disabledTools: [],
      },
      github: {
        command: 'docker',
        args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal' },
        alwaysAllow: [],
      },
      linear: { url: 'https://mcp.linear.app/sse', type: 'sse', note: 'cursor style' },
      context7: { url: 'https://mcp.context7.com/mcp', headers: { CONTEXT7_API_KEY: 'abc' } },
    },
  };

  it('parses unchanged, ignoring unknown keys and dropping them from the result', () => {
    const config = parseConfig(claudeDesktopConfig, { env: {} });
    expect(Object.keys(config)).toEqual([
      'mcpServers',
      'exposure',
      'search',
      'projects',
      'auth',
      'security',
      'warnings',
    ]);
    // Claude Desktop's own settings and approval lists are silent; a key nobody knows is a warning.
    expect(config.warnings).toEqual(['mcpServers.linear.note: unknown key, ignored']);
    expect(Object.keys(config.mcpServers)).toEqual(['filesystem', 'github', 'linear', 'context7']);
    expect(config.mcpServers['filesystem']).toEqual({
      id: 'filesystem',
      name: 'filesystem',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
      env: {},
      enabled: true,
      toolPermissions: {},
      timeoutMs: 60000,
      startupTimeoutMs: 30000,
      tags: [],
    });
    expect(stdio(config, 'github').env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal' });
    expect(remote(config, 'linear')).not.toHaveProperty('note');
    expect(remote(config, 'linear').transport).toBe('sse');
    expect(remote(config, 'context7').transport).toBe('auto');
    expect(remote(config, 'context7').headers).toEqual({ CONTEXT7_API_KEY: 'abc' });
    expect(config.mcpServers['filesystem']).not.toHaveProperty('autoApprove');
  });

  it('is accepted by the exported file schema', () => {
    expect(configFileSchema.safeParse(claudeDesktopConfig).success).toBe(true);
  });
});

describe('parseConfig: the contract example', () => {
  const example = {
    mcpServers: {
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}/Documents'],
        env: { TOKEN: '${MY_TOKEN:-fallback}' },
        cwd: '/optional',
        enabled: true,
        toolPermissions: { write_file: false },
        projects: ['web'],
        timeoutMs: 60000,
        startupTimeoutMs: 30000,
        description: 'Files',
        category: 'storage',
        tags: ['files'],
      },
      remote: { type: 'http', url: 'https://host/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
      legacy: { type: 'sse', url: 'https://host/sse' },
      guess: { url: 'https://host/mcp' },
    },
    exposure: { mode: 'meta', pinned: ['filesystem:read_text_file'] },
    search: {
      strategy: 'bm25',
      maxResults: 10,
      cloud: { url: 'https://search.example/', apiKey: '${SEARCH_API_KEY}', timeoutMs: 5000 },
    },
    projects: { web: { optimization: 'cloud' } },
    auth: { tokens: [{ id: 'ci', token: '${CI_TOKEN}', projects: ['web'] }], allowAnonymous: false },
    audit: { file: './logs/audit.jsonl' },
  };
  const env = { HOME: '/home/me', API_TOKEN: 'api-token', SEARCH_API_KEY: 'search-key', CI_TOKEN: 'ci-token' };

  it('resolves every section', () => {
    const config = parseConfig(example, { env, baseDir: '/etc/search-mcp' });
    expect(config).toEqual({
      mcpServers: {
        filesystem: {
          id: 'filesystem',
          name: 'filesystem',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/Documents'],
          env: { TOKEN: 'fallback' },
          cwd: '/optional',
          enabled: true,
          toolPermissions: { write_file: false },
          projects: ['web'],
          timeoutMs: 60000,
          startupTimeoutMs: 30000,
          description: 'Files',
          category: 'storage',
          tags: ['files'],
        },
        remote: {
          id: 'remote',
          name: 'remote',
          transport: 'http',
          url: 'https://host/mcp',
          headers: { Authorization: 'Bearer api-token' },
          enabled: true,
          toolPermissions: {},
          timeoutMs: 60000,
          startupTimeoutMs: 30000,
          tags: [],
        },
        legacy: expect.objectContaining({ transport: 'sse', url: 'https://host/sse', headers: {} }),
        guess: expect.objectContaining({ transport: 'auto', url: 'https://host/mcp' }),
      },
      exposure: { mode: 'meta', names: 'prefixed', pinned: ['filesystem:read_text_file'] },
      search: {
        strategy: 'bm25',
        maxResults: 10,
        cloud: { url: 'https://search.example/', apiKey: 'search-key', timeoutMs: 5000 },
      },
      projects: { web: { optimization: 'cloud' } },
      auth: { tokens: [{ id: 'ci', token: 'ci-token', projects: ['web'] }], allowAnonymous: false },
      audit: {
        file: '/etc/search-mcp/./logs/audit.jsonl',
        usageFile: '/etc/search-mcp/./logs/audit.jsonl.usage.json',
      },
      security: { quarantineNewServers: false, onSuspicious: 'warn' },
      warnings: [],
    });
  });
});

describe('parseConfig: defaults', () => {
  it('fills every default', () => {
    const config = parseConfig(
      { mcpServers: { a: { command: 'run-a' }, b: { url: 'http://localhost:1/mcp' } } },
      { env: {} },
    );
    expect(config).toEqual({
      mcpServers: {
        a: {
          id: 'a',
          name: 'a',
          transport: 'stdio',
          command: 'run-a',
          args: [],
          env: {},
          enabled: true,
          toolPermissions: {},
          timeoutMs: 60000,
          startupTimeoutMs: 30000,
          tags: [],
        },
        b: {
          id: 'b',
          name: 'b',
          transport: 'auto',
          url: 'http://localhost:1/mcp',
          headers: {},
          enabled: true,
          toolPermissions: {},
          timeoutMs: 60000,
          startupTimeoutMs: 30000,
          tags: [],
        },
      },
      exposure: { mode: 'meta', names: 'prefixed', pinned: [] },
      search: { strategy: 'bm25', maxResults: 10 },
      projects: {},
      auth: { tokens: [], allowAnonymous: false },
      security: { quarantineNewServers: false, onSuspicious: 'warn' },
      warnings: [],
    });
    expect(config).not.toHaveProperty('audit');
    expect(config.mcpServers['a']).not.toHaveProperty('configError');
    expect(config.mcpServers['a']).not.toHaveProperty('projects');
    expect(config.mcpServers['a']).not.toHaveProperty('cwd');
  });

  it('fills the cloud timeout default', () => {
    const config = parseConfig({ mcpServers: {}, search: { cloud: { url: 'https://s.example' } } }, { env: {} });
    expect(config.search.cloud).toEqual({ url: 'https://s.example', timeoutMs: 5000 });
  });

  it('accepts an empty mcpServers object', () => {
    expect(parseConfig({ mcpServers: {} }, { env: {} }).mcpServers).toEqual({});
  });

  it('does not share default arrays between results', () => {
    const first = parseConfig({ mcpServers: { a: { command: 'x' } } }, { env: {} });
    stdio(first, 'a').args.push('changed');
    first.exposure.pinned.push('a:b');
    const second = parseConfig({ mcpServers: { a: { command: 'x' } } }, { env: {} });
    expect(stdio(second, 'a').args).toEqual([]);
    expect(second.exposure.pinned).toEqual([]);
  });
});

describe('parseConfig: transports', () => {
  const parseServer = (entry: unknown) => parseConfig({ mcpServers: { s: entry } }, { env: {} }).mcpServers['s'];

  it('makes a server with command a stdio server, with or without type "stdio"', () => {
    expect(parseServer({ command: 'x' })?.transport).toBe('stdio');
    expect(parseServer({ type: 'stdio', command: 'x' })?.transport).toBe('stdio');
  });

  it('maps type "http" and its aliases to http', () => {
    for (const type of ['http', 'streamable-http', 'streamableHttp', 'streamable_http']) {
      expect(parseServer({ type, url: 'https://h/mcp' })?.transport).toBe('http');
    }
  });

  it('maps type "sse" to sse and no type to auto', () => {
    expect(parseServer({ type: 'sse', url: 'https://h/sse' })?.transport).toBe('sse');
    expect(parseServer({ url: 'https://h/mcp' })?.transport).toBe('auto');
  });

  it('marks a server with both command and url, or neither, at the server path', () => {
    expect(serverErrorOf({ mcpServers: { s: { command: 'x', url: 'https://h' } } })).toBe(
      'mcpServers.s: has both "command" and "url": a server is either local ("command") or remote ("url")',
    );
    expect(serverErrorOf({ mcpServers: { s: { args: ['x'] } } })).toBe(
      'mcpServers.s: needs "command" (a local stdio server) or "url" (a remote server)',
    );
  });

  it('marks a command that is not a string, keeping the server and the others', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 42, args: ['a'] }, t: { command: ['npx'] }, ok: { command: 'x' } } },
      { env: {} },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['s', 't', 'ok']);
    expect(stdio(config, 's')).toMatchObject({
      command: '',
      args: ['a'],
      configError: 'mcpServers.s.command: expected string, got number',
    });
    expect(config.mcpServers['t']?.configError).toBe('mcpServers.t.command: expected string, got array');
    expect(config.mcpServers['ok']).not.toHaveProperty('configError');
  });

  it('marks a type that does not fit', () => {
    expect(serverErrorOf({ mcpServers: { s: { type: 'sse', command: 'x' } } })).toBe(
      'mcpServers.s.type: a remote type needs "url"; with "command" use "stdio" or leave "type" out',
    );
    expect(serverErrorOf({ mcpServers: { s: { type: 'stdio', url: 'https://h' } } })).toBe(
      'mcpServers.s.type: "stdio" needs "command"; with "url" use "http", "sse" or leave "type" out',
    );
    expect(serverErrorOf({ mcpServers: { s: { type: 'websocket', url: 'wss://h' } } })).toBe(
      'mcpServers.s.type: expected one of "stdio", "http", "sse", "streamable-http", "streamableHttp", ' +
        '"streamable_http"; mcpServers.s.url: expected an http or https URL',
    );
  });

  it('requires an http(s) url', () => {
    expect(serverErrorOf({ mcpServers: { s: { url: 'ftp://h/x' } } })).toBe(
      'mcpServers.s.url: expected an http or https URL',
    );
    expect(serverErrorOf({ mcpServers: { s: { url: '${HOST}/mcp' } } }, 's', { env: { HOST: 'not a url' } })).toBe(
      'mcpServers.s.url: expected an http or https URL',
    );
  });
});

describe('parseConfig: server ids', () => {
  it('normalizes keys and keeps the original as name', () => {
    const config = parseConfig(
      { mcpServers: { 'My Server': { command: 'x' }, GitHub_MCP: { command: 'y' } } },
      { env: {} },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['my-server', 'github-mcp']);
    expect(config.mcpServers['my-server']).toMatchObject({ id: 'my-server', name: 'My Server' });
    expect(config.mcpServers['github-mcp']).toMatchObject({ id: 'github-mcp', name: 'GitHub_MCP' });
  });

  it('keeps file order', () => {
    const keys = ['zeta', 'alpha', 'mid', 'beta'];
    const mcpServers = Object.fromEntries(keys.map((key) => [key, { command: key }]));
    expect(Object.keys(parseConfig({ mcpServers }, { env: {} }).mcpServers)).toEqual(keys);
  });

  it('marks the first of two keys that normalize alike, naming both, and skips the second with a warning', () => {
    const config = parseConfig(
      { mcpServers: { 'My Server': { command: 'x' }, 'my-server': { command: 'y' }, other: { command: 'z' } } },
      { env: {} },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['my-server', 'other']);
    expect(config.mcpServers['my-server']).toMatchObject({
      name: 'My Server',
      configError: 'mcpServers: "My Server" and "my-server" both normalize to server id "my-server"; rename one',
    });
    expect(config.mcpServers['other']).not.toHaveProperty('configError');
    expect(config.warnings).toEqual([
      'mcpServers["my-server"]: skipped: "My Server" and "my-server" both normalize to server id "my-server"',
    ]);
  });

  it('skips a key that cannot become an id, with a warning', () => {
    const config = parseConfig({ mcpServers: { '...': { command: 'x' }, ok: { command: 'y' } } }, { env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['ok']);
    expect(config.warnings).toEqual([
      'mcpServers["..."]: skipped: the key cannot be made into a server id (it needs at least one letter or digit)',
    ]);
  });

  it('treats a "__proto__" key from JSON as an ordinary key', () => {
    const input = JSON.parse('{"mcpServers": {"__proto__": {"command": "x"}}}') as unknown;
    const config = parseConfig(input, { env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['proto--']);
    expect(({} as Record<string, unknown>)['command']).toBeUndefined();
  });

  it('makes servers called like Object.prototype members ordinary servers', () => {
    const input = JSON.parse(
      '{"mcpServers": {"constructor": {"command": "a"}, "toString": {"command": "b", "toolPermissions": {"constructor": false}},' +
        ' "__proto__": {"command": "c", "env": {"hasOwnProperty": "y"}}, "valueOf": {"url": "https://h/mcp",' +
        ' "headers": {"constructor": "z"}}}, "projects": {"constructor": {"optimization": null}}}',
    ) as unknown;
    const config = parseConfig(input, { env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['constructor', 'tostring', 'proto--', 'valueof']);
    expect(stdio(config, 'constructor')).toMatchObject({ id: 'constructor', name: 'constructor', command: 'a' });
    expect(stdio(config, 'tostring').toolPermissions).toEqual({ constructor: false });
    expect(stdio(config, 'proto--').env).toEqual({ hasOwnProperty: 'y' });
    expect(remote(config, 'valueof').headers).toEqual({ constructor: 'z' });
    expect(config.projects['constructor']).toEqual({ optimization: null });
    // Ids that are not configured are absent, not inherited members.
    for (const id of ['hasOwnProperty', 'isPrototypeOf', '__proto__']) expect(config.mcpServers[id]).toBeUndefined();
    expect(config.projects['toString']).toBeUndefined();
    expect(stdio(config, 'constructor').toolPermissions['constructor']).toBeUndefined();
    expect(stdio(config, 'constructor').env['toString']).toBeUndefined();
  });

  it('reports a "__proto__" name inside an entry instead of losing it', () => {
    const input = JSON.parse(
      '{"mcpServers": {"s": {"command": "x", "env": {"__proto__": "v", "OK": "w"}}}}',
    ) as unknown;
    expect(serverErrorOf(input)).toBe('mcpServers.s.env.__proto__: "__proto__" cannot be used as a name here');
    expect(stdio(parseConfig(input, { env: {} }), 's').env).toEqual({});
  });
});

describe('parseConfig: variable expansion', () => {
  const env = { CMD: 'node', ARG: 'arg-value', SECRET: 's3cret', DIR: '/srv', HOST: 'https://h', KEY: 'k', EMPTY: '' };

  it('expands command, args, env values and cwd of stdio servers', () => {
    const config = parseConfig(
      {
        mcpServers: {
          s: { command: '${CMD}', args: ['--x=${ARG}', 'plain'], env: { TOKEN: '${SECRET}' }, cwd: '${DIR}/work' },
        },
      },
      { env },
    );
    expect(stdio(config, 's')).toMatchObject({
      command: 'node',
      args: ['--x=arg-value', 'plain'],
      env: { TOKEN: 's3cret' },
      cwd: '/srv/work',
    });
  });

  it('expands url and header values of remote servers', () => {
    const config = parseConfig(
      { mcpServers: { r: { url: '${HOST}/mcp', headers: { Authorization: 'Bearer ${SECRET}' } } } },
      { env },
    );
    expect(remote(config, 'r')).toMatchObject({ url: 'https://h/mcp', headers: { Authorization: 'Bearer s3cret' } });
  });

  it('expands search.cloud.url, search.cloud.apiKey and auth tokens', () => {
    const config = parseConfig(
      {
        mcpServers: {},
        search: { strategy: 'cloud', cloud: { url: '${HOST}/search', apiKey: '${KEY}' } },
        auth: { tokens: [{ id: 'a', token: '${SECRET}' }] },
      },
      { env },
    );
    expect(config.search.cloud).toEqual({ url: 'https://h/search', apiKey: 'k', timeoutMs: 5000 });
    expect(config.auth.tokens).toEqual([{ id: 'a', token: 's3cret' }]);
  });

  it('does not expand other fields', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 'x', description: '${SECRET}', tags: ['${SECRET}'] } } },
      { env },
    );
    expect(config.mcpServers['s']).toMatchObject({ description: '${SECRET}', tags: ['${SECRET}'] });
  });

  it('uses defaults, and treats an empty value as set for ${VAR} but unset for ${VAR:-default}', () => {
    const config = parseConfig(
      {
        mcpServers: {
          s: { command: 'x', env: { A: '${NOPE:-dflt}', B: '${EMPTY}', C: '${EMPTY:-dflt}', D: '${KEY:-dflt}' } },
        },
      },
      { env },
    );
    expect(stdio(config, 's').env).toEqual({ A: 'dflt', B: '', C: 'dflt', D: 'k' });
  });

  it('marks a server with an unset variable, naming the variable and the path of the field', () => {
    const config = parseConfig(
      {
        mcpServers: { github: { command: 'x', env: { TOKEN: '${GITHUB_TOKEN}' } }, fine: { command: 'y' } },
      },
      { env: {} },
    );
    expect(config.mcpServers['github']?.configError).toBe(
      'mcpServers.github.env.TOKEN: environment variable GITHUB_TOKEN is not set',
    );
    expect(config.mcpServers['fine']).not.toHaveProperty('configError');
  });

  it('reports every unset variable at the path of every field, per server and per section', () => {
    const config = parseConfig(
      {
        mcpServers: {
          'My Server': {
            command: '${C}',
            args: ['a', 'b', '${ARGV}'],
            env: { 'X-Y': '${E}' },
            cwd: '${W}',
          },
          r: { url: '${U}', headers: { 'X-Api-Key': '${H}' } },
        },
      },
      { env: {} },
    );
    expect(config.mcpServers['my-server']?.configError).toBe(
      'mcpServers["My Server"].command: environment variable C is not set; ' +
        'mcpServers["My Server"].args[2]: environment variable ARGV is not set; ' +
        'mcpServers["My Server"].env["X-Y"]: environment variable E is not set; ' +
        'mcpServers["My Server"].cwd: environment variable W is not set',
    );
    expect(config.mcpServers['r']?.configError).toBe(
      'mcpServers.r.url: environment variable U is not set; ' +
        'mcpServers.r.headers["X-Api-Key"]: environment variable H is not set',
    );
    const issues = issuesOf(
      {
        mcpServers: {},
        search: { cloud: { url: '${CU}', apiKey: '${CK}' }, llm: { baseUrl: '${LU}', apiKey: '${LK}' } },
        auth: { tokens: [{ id: 'a', token: '${T}' }] },
      },
      { env: {} },
    );
    expect(issues).toEqual([
      { path: 'search.cloud.url', message: 'environment variable CU is not set' },
      { path: 'search.cloud.apiKey', message: 'environment variable CK is not set' },
      { path: 'search.llm.baseUrl', message: 'environment variable LU is not set' },
      { path: 'search.llm.apiKey', message: 'environment variable LK is not set' },
      { path: 'auth.tokens[0].token', message: 'environment variable T is not set' },
    ]);
  });

  it('puts the variable name and path in the error message of a section', () => {
    const error = configError({ mcpServers: {}, auth: { tokens: [{ id: 'ci', token: '${CI_TOKEN}' }] } }, { env: {} });
    expect(error.message).toContain('auth.tokens[0].token: environment variable CI_TOKEN is not set');
  });

  it('does not expand disabled servers, so their unset variables are no error', () => {
    const config = parseConfig(
      {
        mcpServers: {
          off: { enabled: false, command: '${CMD}', args: ['${MISSING}'], env: { T: '${MISSING}' }, cwd: '${MISSING}' },
          offRemote: { enabled: false, url: '${MISSING}/mcp', headers: { A: '${MISSING}' } },
        },
      },
      { env },
    );
    expect(stdio(config, 'off')).toMatchObject({
      enabled: false,
      command: '${CMD}',
      args: ['${MISSING}'],
      env: { T: '${MISSING}' },
      cwd: '${MISSING}',
    });
    expect(remote(config, 'offremote')).toMatchObject({
      enabled: false,
      url: '${MISSING}/mcp',
      headers: { A: '${MISSING}' },
    });
  });

  it('still validates disabled servers structurally', () => {
    expect(serverErrorOf({ mcpServers: { off: { enabled: false, command: 'x', timeoutMs: 'soon' } } }, 'off')).toBe(
      'mcpServers.off.timeoutMs: expected a positive integer',
    );
    expect(serverErrorOf({ mcpServers: { off: { enabled: false, url: 'not a url' } } }, 'off')).toBe(
      'mcpServers.off.url: expected an http or https URL',
    );
  });

  it('reads process.env when no env is given', () => {
    vi.stubEnv('SEARCH_MCP_TEST_VARIABLE', 'from-process');
    const config = parseConfig({ mcpServers: { s: { command: '${SEARCH_MCP_TEST_VARIABLE}' } } });
    expect(stdio(config, 's').command).toBe('from-process');
  });
});

describe('parseConfig: paths', () => {
  it('resolves a relative cwd and audit file against baseDir', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 'x', cwd: 'work' } }, audit: { file: 'logs/audit.jsonl' } },
      { env: {}, baseDir: '/etc/app/' },
    );
    expect(stdio(config, 's').cwd).toBe('/etc/app/work');
    expect(config.audit).toEqual({
      file: '/etc/app/logs/audit.jsonl',
      usageFile: '/etc/app/logs/audit.jsonl.usage.json',
    });
  });

  it('resolves audit.usageFile against baseDir, and keeps it apart from the audit file', () => {
    const config = parseConfig(
      { mcpServers: {}, audit: { file: 'logs/audit.jsonl', usageFile: 'state/usage.json' } },
      { baseDir: '/etc/app' },
    );
    expect(config.audit).toEqual({ file: '/etc/app/logs/audit.jsonl', usageFile: '/etc/app/state/usage.json' });
  });

  it('leaves absolute paths alone, POSIX and Windows', () => {
    const parseCwd = (cwd: string) =>
      stdio(parseConfig({ mcpServers: { s: { command: 'x', cwd } } }, { env: {}, baseDir: '/base' }), 's').cwd;
    expect(parseCwd('/abs')).toBe('/abs');
    expect(parseCwd('C:\\work')).toBe('C:\\work');
    expect(parseCwd('d:/work')).toBe('d:/work');
    expect(parseCwd('\\\\share\\dir')).toBe('\\\\share\\dir');
  });

  it('resolves a cwd that came from a variable when it is relative', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 'x', cwd: '${SUB}' } } },
      { env: { SUB: 'sub' }, baseDir: '/b' },
    );
    expect(stdio(config, 's').cwd).toBe('/b/sub');
  });

  it('leaves relative paths alone without baseDir', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 'x', cwd: 'work' } }, audit: { file: 'a.jsonl' } },
      { env: {} },
    );
    expect(stdio(config, 's').cwd).toBe('work');
    expect(config.audit?.file).toBe('a.jsonl');
  });
});

describe('parseConfig: sections', () => {
  it('accepts proxy mode and validates the mode', () => {
    expect(parseConfig({ mcpServers: {}, exposure: { mode: 'proxy' } }, { env: {} }).exposure.mode).toBe('proxy');
    expect(issuesOf({ mcpServers: {}, exposure: { mode: 'full' } }, { env: {} })).toEqual([
      { path: 'exposure.mode', message: 'expected one of "meta", "proxy"' },
    ]);
  });

  it('accepts original names and validates exposure.names', () => {
    expect(parseConfig({ mcpServers: {}, exposure: { names: 'original' } }, { env: {} }).exposure.names).toBe(
      'original',
    );
    expect(issuesOf({ mcpServers: {}, exposure: { names: 'plain' } }, { env: {} })).toEqual([
      { path: 'exposure.names', message: 'expected one of "prefixed", "original"' },
    ]);
    expect(issuesOf({ mcpServers: {}, exposure: { names: true } }, { env: {} })).toEqual([
      { path: 'exposure.names', message: 'expected one of "prefixed", "original"' },
    ]);
  });

  it('validates pinned tool keys and stores them as server:tool', () => {
    const config = parseConfig(
      { mcpServers: {}, exposure: { pinned: ['fs:read_file', 'fs.write_file', 'gh__create_issue', 'fs:read_file'] } },
      { env: {} },
    );
    expect(config.exposure.pinned).toEqual(['fs:read_file', 'fs:write_file', 'gh:create_issue']);
    expect(
      issuesOf({ mcpServers: {}, exposure: { pinned: ['ok:tool', 'no_separator', 'Bad:tool', 'x:'] } }, { env: {} }),
    ).toEqual([
      { path: 'exposure.pinned[1]', message: expect.stringContaining('expected a tool key') },
      { path: 'exposure.pinned[2]', message: expect.stringContaining('expected a tool key') },
      { path: 'exposure.pinned[3]', message: expect.stringContaining('expected a tool key') },
    ]);
  });

  it('validates search.strategy and maxResults', () => {
    expect(parseConfig({ mcpServers: {}, search: { strategy: 'off', maxResults: 50 } }, { env: {} }).search).toEqual({
      strategy: 'off',
      maxResults: 50,
    });
    expect(issuesOf({ mcpServers: {}, search: { strategy: 'fuzzy', maxResults: 0 } }, { env: {} })).toEqual([
      { path: 'search.strategy', message: 'expected one of "bm25", "hybrid", "llm", "cloud", "off"' },
      { path: 'search.maxResults', message: 'expected an integer from 1 to 50' },
    ]);
    for (const maxResults of [51, 2.5, '10']) {
      expect(issuesOf({ mcpServers: {}, search: { maxResults } }, { env: {} })).toEqual([
        { path: 'search.maxResults', message: 'expected an integer from 1 to 50' },
      ]);
    }
  });

  it('requires search.cloud.url for the cloud strategy', () => {
    expect(issuesOf({ mcpServers: {}, search: { strategy: 'cloud' } }, { env: {} })).toEqual([
      { path: 'search.cloud.url', message: 'required when search.strategy is "cloud"' },
    ]);
    expect(issuesOf({ mcpServers: {}, search: { strategy: 'cloud', cloud: {} } }, { env: {} })).toEqual([
      { path: 'search.cloud.url', message: 'required' },
    ]);
    expect(issuesOf({ mcpServers: {}, search: { cloud: { url: 'search.example' } } }, { env: {} })).toEqual([
      { path: 'search.cloud.url', message: 'expected an http or https URL' },
    ]);
  });

  it('reads project optimization, inheriting search.strategy when absent', () => {
    const config = parseConfig(
      {
        mcpServers: {},
        search: { strategy: 'off' },
        projects: {
          web: { optimization: 'cloud' },
          cli: { optimization: null },
          docs: { optimization: 'bm25' },
          misc: {},
        },
      },
      { env: {} },
    );
    expect(config.projects).toEqual({
      web: { optimization: 'cloud' },
      cli: { optimization: null },
      docs: { optimization: 'bm25' },
      misc: { optimization: null },
    });
    expect(parseConfig({ mcpServers: {}, projects: { misc: {} } }, { env: {} }).projects).toEqual({
      misc: { optimization: 'bm25' },
    });
    expect(issuesOf({ mcpServers: {}, projects: { web: { optimization: 'fast' } } }, { env: {} })).toEqual([
      { path: 'projects.web.optimization', message: 'expected one of "bm25", "hybrid", "llm", "cloud", null' },
    ]);
  });

  it('validates auth tokens', () => {
    const config = parseConfig(
      { mcpServers: {}, auth: { tokens: [{ id: 'a', token: 't', projects: ['web'] }], allowAnonymous: true } },
      { env: {} },
    );
    expect(config.auth).toEqual({ tokens: [{ id: 'a', token: 't', projects: ['web'] }], allowAnonymous: true });
    // A structural problem stops the section's further checks; once fixed, the rest is checked.
    expect(
      issuesOf(
        {
          mcpServers: {},
          auth: {
            tokens: [{ id: 'a', token: 't' }, { id: 'a', token: 'u' }, { id: 'b', token: '${EMPTY}' }, { token: 'x' }],
          },
        },
        { env: { EMPTY: '' } },
      ),
    ).toEqual([{ path: 'auth.tokens[3].id', message: 'required' }]);
    expect(
      issuesOf(
        {
          mcpServers: {},
          auth: {
            tokens: [
              { id: 'a', token: 't' },
              { id: 'a', token: 'u' },
              { id: 'b', token: '${EMPTY}' },
            ],
          },
        },
        { env: { EMPTY: '' } },
      ),
    ).toEqual([
      { path: 'auth.tokens[1].id', message: 'duplicate token id' },
      { path: 'auth.tokens[2].token', message: 'expected a non-empty token' },
    ]);
  });

  it('validates toolPermissions, projects and tags of a server, keeping what is valid', () => {
    const config = parseConfig(
      {
        mcpServers: {
          s: { command: 'x', args: ['a'], toolPermissions: { write: 'no' }, projects: 'web', tags: [1], timeoutMs: 5 },
        },
      },
      { env: {} },
    );
    expect(stdio(config, 's')).toMatchObject({
      command: 'x',
      args: ['a'],
      toolPermissions: {},
      tags: [],
      timeoutMs: 5,
      configError:
        'mcpServers.s.toolPermissions.write: expected boolean, got string; ' +
        'mcpServers.s.projects: expected array, got string; mcpServers.s.tags[0]: expected string, got number',
    });
    expect(stdio(config, 's')).not.toHaveProperty('projects');
  });
});

describe('parseConfig: errors', () => {
  it('rejects a non-object and a missing or wrong mcpServers', () => {
    expect(issuesOf('nope')).toEqual([{ path: '', message: 'expected an object, got string' }]);
    expect(issuesOf(null)).toEqual([{ path: '', message: 'expected an object, got null' }]);
    expect(issuesOf({}, { env: {} })).toEqual([{ path: 'mcpServers', message: 'required' }]);
    expect(issuesOf({ mcpServers: [] }, { env: {} })).toEqual([
      { path: 'mcpServers', message: 'expected an object, got array' },
    ]);
    expect(serverErrorOf({ mcpServers: { s: 'npx' } })).toBe('mcpServers.s: expected object, got string');
  });

  it('keeps every server, each with all of its own problems, when the sections are fine', () => {
    const config = parseConfig(
      {
        mcpServers: {
          a: { command: 'x', timeoutMs: -5, startupTimeoutMs: 'soon', enviroment: {} },
          b: {},
          c: { command: 'y', env: { K: '${UNSET_ONE}' } },
          C: { command: 'z' },
          fine: { command: 'ok' },
        },
      },
      { env: {} },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['a', 'b', 'c', 'fine']);
    expect(config.mcpServers['a']?.configError).toBe(
      'mcpServers.a.timeoutMs: expected a positive integer; mcpServers.a.startupTimeoutMs: expected a positive integer',
    );
    expect(config.mcpServers['a']).toMatchObject({ timeoutMs: 60000, startupTimeoutMs: 30000 });
    expect(config.mcpServers['b']?.configError).toContain('needs "command"');
    expect(config.mcpServers['c']?.configError).toBe(
      'mcpServers.c.env.K: environment variable UNSET_ONE is not set; ' +
        'mcpServers: "c" and "C" both normalize to server id "c"; rename one',
    );
    expect(config.mcpServers['fine']).not.toHaveProperty('configError');
    expect(config.warnings).toEqual([
      'mcpServers.a.enviroment: unknown key, ignored; did you mean "env"?',
      'mcpServers.C: skipped: "c" and "C" both normalize to server id "c"',
    ]);
  });

  it('reports every problem of the sections at once', () => {
    const error = configError(
      {
        mcpServers: { a: { command: 'x', timeoutMs: -5 } },
        exposure: { mode: 'everything', pinned: ['bad'] },
        search: { maxResults: 100 },
        auth: { allowAnonymous: 'yes' },
        audit: {},
      },
      { env: {}, file: '/etc/search-mcp/config.json' },
    );
    expect(error.issues).toEqual([
      { path: 'exposure.mode', message: 'expected one of "meta", "proxy"' },
      { path: 'search.maxResults', message: 'expected an integer from 1 to 50' },
      { path: 'auth.allowAnonymous', message: 'expected boolean, got string' },
      { path: 'audit.file', message: 'required' },
    ]);
    expect(error.file).toBe('/etc/search-mcp/config.json');
    expect(error.code).toBe('CONFIG_ERROR');
    expect(error.message).toContain('/etc/search-mcp/config.json');
    for (const issue of error.issues) expect(error.message).toContain(`${issue.path}: ${issue.message}`);
  });

  it('never puts a config value in a server configError or a warning', () => {
    const secret = 'sk-live-SECRET-0123456789';
    const config = parseConfig(
      {
        mcpServers: {
          a: { type: secret, url: 'https://h' },
          b: { command: 'x', timeoutMs: secret, toolPermissions: { t: secret }, enabled: secret, env: { K: 42 } },
          c: { url: `ftp://${secret}@host/` },
          d: secret,
          e: { command: 'x', args: [{ secret }] },
          f: { command: secret, url: secret },
          g: { command: 'x', disabled: secret, serverUrl: secret, transportType: secret, disabledTools: secret },
          h: { command: 'x', arg: [secret], timeout: secret },
        },
        mcpServer: secret,
      },
      { env: {} },
    );
    const errors = Object.values(config.mcpServers).map((server) => server.configError);
    expect(errors.filter((error) => error !== undefined)).toHaveLength(7);
    expect(JSON.stringify(errors)).not.toContain('SECRET');
    expect(config.warnings.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(config.warnings)).not.toContain('SECRET');
  });

  it('never puts a config value in an error message', () => {
    const secret = 'sk-live-SECRET-0123456789';
    const error = configError(
      {
        mcpServers: { ok: { command: 'x' } },
        exposure: { mode: secret, pinned: [secret, `Upper${secret}:x`] },
        search: { strategy: secret, maxResults: secret, cloud: { url: secret, apiKey: 7 } },
        projects: { web: { optimization: secret } },
        auth: { tokens: [{ id: 'a', token: 12 }], allowAnonymous: secret },
        audit: { file: 5 },
      },
      { env: {}, file: '/config.json' },
    );
    expect(error.issues).toHaveLength(8);
    expect(error.message).not.toContain('SECRET');
    expect(JSON.stringify(error.issues)).not.toContain('SECRET');
    expect(JSON.stringify(error)).not.toContain('SECRET');
    expect(String(error)).not.toContain('SECRET');
  });

  it('never echoes the value of an expanded variable', () => {
    expect(
      serverErrorOf({ mcpServers: { r: { url: '${URL_WITH_SECRET}' } } }, 'r', {
        env: { URL_WITH_SECRET: 'not-a-url-SECRET' },
      }),
    ).toBe('mcpServers.r.url: expected an http or https URL');
    const error = configError(
      { mcpServers: {}, search: { cloud: { url: '${URL_WITH_SECRET}' } } },
      { env: { URL_WITH_SECRET: 'not-a-url-SECRET' } },
    );
    expect(error.issues).toEqual([{ path: 'search.cloud.url', message: 'expected an http or https URL' }]);
    expect(error.message).not.toContain('SECRET');
  });
});

describe('isResolvedConfig', () => {
  it('is true only for objects returned by parseConfig', () => {
    const config = parseConfig({ mcpServers: {} }, { env: {} });
    expect(isResolvedConfig(config)).toBe(true);
    expect(isResolvedConfig({ ...config })).toBe(false);
    expect(isResolvedConfig({ mcpServers: {} })).toBe(false);
    expect(isResolvedConfig(null)).toBe(false);
    expect(isResolvedConfig('config')).toBe(false);
  });

  it('makes parseConfig return a resolved config unchanged, without expanding again', () => {
    const config = parseConfig({ mcpServers: { s: { command: 'x', args: ['${A}'] } } }, { env: { A: '${B}' } });
    expect(stdio(config, 's').args).toEqual(['${B}']);
    const again = parseConfig(config, { env: { B: 'expanded twice' } });
    expect(again).toBe(config);
    expect(stdio(again, 's').args).toEqual(['${B}']);
  });

  it('parses a copy of a resolved config as new input', () => {
    const config = parseConfig({ mcpServers: {} }, { env: {} });
    const copy = parseConfig({ ...config }, { env: {} });
    expect(copy).not.toBe(config);
    expect(copy).toEqual(config);
  });
});

describe('formatConfigPath', () => {
  it('uses dots for identifiers and JSON-quoted brackets otherwise', () => {
    expect(formatConfigPath([])).toBe('');
    expect(formatConfigPath(['mcpServers', 'github', 'env', 'TOKEN'])).toBe('mcpServers.github.env.TOKEN');
    expect(formatConfigPath(['mcpServers', 'My Server', 'args', 2])).toBe('mcpServers["My Server"].args[2]');
    expect(formatConfigPath(['mcpServers', 'a"b', 'x'])).toBe('mcpServers["a\\"b"].x');
    expect(formatConfigPath(['my-key'])).toBe('["my-key"]');
    expect(formatConfigPath(['_ok', '$ok'])).toBe('_ok.$ok');
  });
});
