import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { parseConfig } from './parse-config.js';
import type { RemoteServerConfig, ResolvedConfig, StdioServerConfig } from './resolved-config.js';

function server(config: ResolvedConfig, id: string) {
  const found = config.mcpServers[id];
  if (found === undefined) throw new Error(`no server ${id}`);
  return found;
}

describe('parseConfig: Cline / Roo / Windsurf entries', () => {
  it('reads "disabled": true as enabled false, and false as enabled', () => {
    const config = parseConfig(
      { mcpServers: { off: { command: 'x', disabled: true }, on: { command: 'y', disabled: false } } },
      { env: {} },
    );
    expect(server(config, 'off').enabled).toBe(false);
    expect(server(config, 'on').enabled).toBe(true);
    expect(config.warnings).toEqual([]);
  });

  it('does not expand a server disabled the Cline way, like any disabled server', () => {
    const config = parseConfig({ mcpServers: { off: { command: '${MISSING}', disabled: true } } }, { env: {} });
    expect(server(config, 'off')).toMatchObject({ enabled: false, command: '${MISSING}' });
    expect(server(config, 'off')).not.toHaveProperty('configError');
  });

  it('does not start a server whose "enabled" and "disabled" contradict, and says so', () => {
    const config = parseConfig({ mcpServers: { s: { command: 'x', enabled: true, disabled: true } } }, { env: {} });
    expect(server(config, 's').enabled).toBe(false);
    expect(config.warnings).toEqual(['mcpServers.s.disabled: contradicts "enabled"; the server is not started']);
  });

  it('marks a "disabled" that is not a boolean', () => {
    const config = parseConfig({ mcpServers: { s: { command: 'x', disabled: 'yes' } } }, { env: {} });
    expect(server(config, 's').configError).toBe('mcpServers.s.disabled: expected boolean, got string');
  });

  it('reads Windsurf "serverUrl" as "url"', () => {
    const config = parseConfig({ mcpServers: { w: { serverUrl: 'https://h/mcp' } } }, { env: {} });
    expect(server(config, 'w')).toMatchObject({ transport: 'auto', url: 'https://h/mcp' });
    expect(server(config, 'w')).not.toHaveProperty('configError');
  });

  it('marks "serverUrl" that differs from "url", and accepts the same value twice', () => {
    const config = parseConfig(
      {
        mcpServers: {
          both: { url: 'https://a/mcp', serverUrl: 'https://b/mcp' },
          same: { url: 'https://a/mcp', serverUrl: 'https://a/mcp' },
        },
      },
      { env: {} },
    );
    expect(server(config, 'both').configError).toBe('mcpServers.both.serverUrl: differs from "url": keep one of them');
    expect(server(config, 'same')).not.toHaveProperty('configError');
  });

  it('reads Cline "transportType" as "type"', () => {
    const config = parseConfig(
      {
        mcpServers: {
          c: { url: 'https://h/sse', transportType: 'sse' },
          bad: { url: 'https://h', transportType: 'ws' },
        },
      },
      { env: {} },
    );
    expect(server(config, 'c').transport).toBe('sse');
    expect(server(config, 'bad').configError).toBe(
      'mcpServers.bad.transportType: expected one of "stdio", "http", "sse", "streamable-http", "streamableHttp", ' +
        '"streamable_http"',
    );
  });

  it('reads Roo / Windsurf "disabledTools" as toolPermissions false, an explicit permission winning', () => {
    const config = parseConfig(
      {
        mcpServers: {
          r: { command: 'x', disabledTools: ['write_file', 'delete'], toolPermissions: { delete: true } },
          bad: { command: 'y', disabledTools: 'write_file' },
        },
      },
      { env: {} },
    );
    expect(server(config, 'r').toolPermissions).toEqual({ write_file: false, delete: true });
    expect(server(config, 'bad').configError).toBe('mcpServers.bad.disabledTools: expected an array of tool names');
  });
});

describe('parseConfig: VS Code files', () => {
  it('reads top-level "servers" with "type": "stdio", ${env:VAR}, and VS Code "inputs" silently', () => {
    const config = parseConfig(
      {
        inputs: [{ type: 'promptString', id: 'token', password: true }],
        servers: {
          github: { type: 'stdio', command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: '${env:GH}' } },
          remote: { type: 'http', url: 'https://h/mcp' },
        },
      },
      { env: { GH: 'gh-value' } },
    );
    expect(server(config, 'github') as StdioServerConfig).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      env: { TOKEN: 'gh-value' },
    });
    expect((server(config, 'remote') as RemoteServerConfig).transport).toBe('http');
    expect(config.warnings).toEqual([]);
  });

  it('marks a server that needs a VS Code input variable, with the path of the field', () => {
    const config = parseConfig(
      { servers: { s: { command: 'x', env: { TOKEN: '${input:token}' } }, ok: { command: 'y' } } },
      { env: {} },
    );
    expect(server(config, 's').configError).toBe(
      'servers.s.env.TOKEN: VS Code input variables (${input:…}) are not supported: write the value or use ${VAR}',
    );
    expect(server(config, 'ok')).not.toHaveProperty('configError');
  });

  it('reads "mcpServers" and "servers" together, reporting the same id in both', () => {
    const config = parseConfig(
      { mcpServers: { a: { command: 'x' } }, servers: { b: { command: 'y' }, A: { command: 'z' } } },
      { env: {} },
    );
    expect(Object.keys(config.mcpServers)).toEqual(['a', 'b']);
    expect(server(config, 'a').configError).toBe(
      'mcpServers: "mcpServers.a" and "servers.A" both normalize to server id "a"; rename one',
    );
    expect(config.warnings).toEqual([
      'servers.A: skipped: "mcpServers.a" and "servers.A" both normalize to server id "a"',
    ]);
  });

  it('refuses a "servers" that is not an object when it is the only server list, and ignores it otherwise', () => {
    expect(() => parseConfig({ servers: [] }, { env: {} })).toThrow(ConfigError);
    const config = parseConfig({ mcpServers: { a: { command: 'x' } }, servers: 'other tool' }, { env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['a']);
    expect(config.warnings).toEqual(['servers: not an object of servers, ignored']);
  });
});

describe('parseConfig: Claude Code ~/.claude.json', () => {
  const claudeJson = {
    mcpServers: { user: { type: 'stdio', command: 'u' } },
    projects: { '/home/me/app': { mcpServers: { proj: { command: 'p' } }, allowedTools: [] } },
  };

  it("takes the user scope and the given directory's project scope, and not Claude Code's projects as ours", () => {
    const config = parseConfig(claudeJson, { env: {}, projectDirectory: '/home/me/app' });
    expect(Object.keys(config.mcpServers)).toEqual(['user', 'proj']);
    expect(config.projects).toEqual({});
    expect(config.warnings).toEqual([]);
  });

  it('takes the user scope only without a project directory', () => {
    expect(Object.keys(parseConfig(claudeJson, { env: {} }).mcpServers)).toEqual(['user']);
  });

  it('keeps Search MCP projects named like words', () => {
    const config = parseConfig({ mcpServers: {}, projects: { web: { optimization: 'bm25' } } }, { env: {} });
    expect(config.projects).toEqual({ web: { optimization: 'bm25' } });
  });
});
