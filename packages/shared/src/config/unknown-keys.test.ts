import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { parseConfig } from './parse-config.js';
import { suggestKey } from './unknown-keys.js';

const serverKeys = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'enabled', 'timeoutMs', 'tags'];

describe('suggestKey', () => {
  it('finds the key a typo meant', () => {
    expect(suggestKey('arg', serverKeys)).toBe('args');
    expect(suggestKey('enviroment', serverKeys)).toBe('env');
    expect(suggestKey('environment', serverKeys)).toBe('env');
    expect(suggestKey('timeoutMS', serverKeys)).toBe('timeoutMs');
    expect(suggestKey('timeout_ms', serverKeys)).toBe('timeoutMs');
    expect(suggestKey('comand', serverKeys)).toBe('command');
    expect(suggestKey('hedaers', serverKeys)).toBe('headers');
    expect(suggestKey('mcpServer', ['mcpServers', 'exposure'])).toBe('mcpServers');
    expect(suggestKey('mcp_servers', ['mcpServers', 'exposure'])).toBe('mcpServers');
  });

  it('suggests nothing when nothing is close', () => {
    expect(suggestKey('globalShortcut', serverKeys)).toBeUndefined();
    expect(suggestKey('zzz', serverKeys)).toBeUndefined();
    expect(suggestKey('', serverKeys)).toBeUndefined();
    expect(
      suggestKey('preferences', ['mcpServers', 'exposure', 'search', 'projects', 'auth', 'audit']),
    ).toBeUndefined();
  });
});

describe('parseConfig: unknown keys', () => {
  it('warns about unknown keys at every level, each with its JSON path', () => {
    const config = parseConfig(
      {
        mcpServers: { github: { command: 'x', arg: ['y'], enviroment: { A: 'b' }, timeoutMS: 5, colour: 'red' } },
        exposure: { mod: 'proxy' },
        search: {
          stratgy: 'off',
          cloud: { url: 'https://s', apikey: 'k' },
          llm: { modle: 'm' },
          hybrid: { weight: 1 },
        },
        projects: { web: { optimisation: 'cloud' } },
        auth: { tokens: [{ id: 'a', token: 'tok', project: ['web'] }], allowAnonymus: true },
        audit: { file: 'a.jsonl', path: 'b' },
      },
      { env: {} },
    );
    expect(config.warnings).toEqual([
      'mcpServers.github.arg: unknown key, ignored; did you mean "args"?',
      'mcpServers.github.enviroment: unknown key, ignored; did you mean "env"?',
      'mcpServers.github.timeoutMS: unknown key, ignored; did you mean "timeoutMs"?',
      'mcpServers.github.colour: unknown key, ignored',
      'exposure.mod: unknown key, ignored; did you mean "mode"?',
      'search.stratgy: unknown key, ignored; did you mean "strategy"?',
      'search.cloud.apikey: unknown key, ignored; did you mean "apiKey"?',
      'search.llm.modle: unknown key, ignored; did you mean "model"?',
      'search.hybrid.weight: unknown key, ignored',
      'projects.web.optimisation: unknown key, ignored; did you mean "optimization"?',
      'auth.allowAnonymus: unknown key, ignored; did you mean "allowAnonymous"?',
      'auth.tokens[0].project: unknown key, ignored; did you mean "projects"?',
      'audit.path: unknown key, ignored',
    ]);
    // Nothing is applied from a misspelt key, and nothing else is lost.
    expect(config.mcpServers['github']).toMatchObject({ command: 'x', args: [], env: {}, timeoutMs: 60000 });
    expect(config.mcpServers['github']).not.toHaveProperty('configError');
    expect(config.exposure.mode).toBe('meta');
  });

  it('warns at the top level only about likely typos, since other clients keep their settings there', () => {
    const config = parseConfig(
      { globalShortcut: 'Ctrl+Space', preferences: {}, mcpServers: {}, exposur: { mode: 'proxy' } },
      { env: {} },
    );
    expect(config.warnings).toEqual(['exposur: unknown key, ignored; did you mean "exposure"?']);
  });

  it('names the misspelt server list when the real one is missing', () => {
    let error: unknown;
    try {
      parseConfig({ mcpServer: { a: { command: 'x' } } }, { env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const configError = error as ConfigError;
    expect(configError.issues).toEqual([{ path: 'mcpServers', message: 'required' }]);
    expect(configError.warnings).toEqual(['mcpServer: unknown key, ignored; did you mean "mcpServers"?']);
    expect(configError.message).toBe(
      'Invalid configuration:\n  - mcpServers: required\nWarnings:\n' +
        '  - mcpServer: unknown key, ignored; did you mean "mcpServers"?',
    );
  });

  it('explains the keys of other clients that do nothing here, and ignores their approval lists', () => {
    const config = parseConfig(
      {
        mcpServers: {
          cline: { command: 'x', timeout: 60, autoApprove: ['a'], alwaysAllow: [] },
          vscode: { type: 'stdio', command: 'y', envFile: '${workspaceFolder}/.env', dev: { watch: 'src' } },
        },
      },
      { env: {} },
    );
    expect(config.warnings).toEqual([
      'mcpServers.cline.timeout: not read by Search MCP (other clients count it in seconds); did you mean "timeoutMs"?',
      'mcpServers.vscode.envFile: not read by Search MCP: put the variables in "env"; did you mean "env"?',
    ]);
  });
});
