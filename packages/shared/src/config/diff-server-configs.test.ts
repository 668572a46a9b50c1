import { describe, expect, it } from 'vitest';
import { diffServerConfigs } from './diff-server-configs.js';
import { parseConfig } from './parse-config.js';

const env = { TOKEN: 'first-token-value' };

function config(mcpServers: Record<string, unknown>, variables: Record<string, string> = env) {
  return parseConfig({ mcpServers }, { env: variables });
}

const base = {
  files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] },
  github: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: '${TOKEN}', A: '1' } },
  remote: { url: 'https://h/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
};

describe('diffServerConfigs', () => {
  it('sorts servers into added, removed, changed and unchanged', () => {
    const previous = config(base);
    const next = config({
      files: base.files,
      github: { ...base.github, args: ['-y', 'server-github', '--read-only'] },
      memory: { command: 'npx', args: ['-y', 'server-memory'] },
    });
    expect(diffServerConfigs(previous, next)).toEqual({
      added: ['memory'],
      removed: ['remote'],
      changed: ['github'],
      unchanged: ['files'],
    });
  });

  it('finds nothing changed in the same config, nor in records written in another key order', () => {
    const reordered = config({
      remote: base.remote,
      github: { env: { A: '1', GITHUB_TOKEN: '${TOKEN}' }, args: base.github.args, command: 'npx' },
      files: base.files,
    });
    expect(diffServerConfigs(config(base), reordered)).toEqual({
      added: [],
      removed: [],
      changed: [],
      unchanged: ['remote', 'github', 'files'],
    });
  });

  it.each([
    ['an argument', { files: { ...base.files, args: ['-y', 'server-filesystem', '/var'] } }],
    ['the order of arguments', { files: { ...base.files, args: ['server-filesystem', '-y', '/tmp'] } }],
    ['cwd', { files: { ...base.files, cwd: '/work' } }],
    ['an env variable', { files: { ...base.files, env: { DEBUG: '1' } } }],
    ['enabled', { files: { ...base.files, enabled: false } }],
    ['a tool permission', { files: { ...base.files, toolPermissions: { write_file: false } } }],
    ['projects', { files: { ...base.files, projects: ['web'] } }],
    ['timeoutMs', { files: { ...base.files, timeoutMs: 1000 } }],
    ['startupTimeoutMs', { files: { ...base.files, startupTimeoutMs: 1000 } }],
    ['the command', { files: { ...base.files, command: 'bunx' } }],
    ['a url', { remote: { ...base.remote, url: 'https://other/mcp' } }],
    ['a header', { remote: { ...base.remote, headers: { Authorization: 'Bearer x', 'X-Extra': '1' } } }],
    ['the type', { remote: { ...base.remote, type: 'sse' } }],
    ['stdio to remote', { files: { url: 'https://h/files' } }],
    ['the description', { files: { ...base.files, description: 'Files' } }],
  ])('counts a change of %s as changed', (_what, replacement) => {
    const previous = config(base);
    const next = config({ ...base, ...replacement });
    const [id] = Object.keys(replacement);
    const diff = diffServerConfigs(previous, next);
    expect(diff.changed).toEqual([id]);
    expect(diff.unchanged).toHaveLength(2);
  });

  it('counts a changed variable value as changed: the expanded definition is compared', () => {
    const diff = diffServerConfigs(config(base), config(base, { TOKEN: 'rotated-token-value' }));
    expect(diff.changed).toEqual(['github', 'remote']);
    expect(diff.unchanged).toEqual(['files']);
  });

  it('restarts a server whose entry was broken and is fixed', () => {
    const broken = config({ ...base, files: { ...base.files, args: ['${UNSET_DIRECTORY}'] } });
    expect(broken.mcpServers['files']?.configError).toBeDefined();
    const fixed = config({ ...base, files: { ...base.files, args: ['${UNSET_DIRECTORY:-/tmp}'] } });
    expect(diffServerConfigs(broken, fixed).changed).toEqual(['files']);
  });

  it('handles ids that are names of Object members like any other', () => {
    const previous = config({ constructor: base.files, toString: base.remote });
    const next = config({ constructor: base.files, hasOwnProperty: base.remote });
    expect(diffServerConfigs(previous, next)).toEqual({
      added: ['hasownproperty'],
      removed: ['tostring'],
      changed: [],
      unchanged: ['constructor'],
    });
  });

  it('leaves a server running when only its per-tool overrides changed (the catalog applies them)', () => {
    const renamed = config({ ...base, files: { ...base.files, tools: { read_file: { name: 'read' } } } });
    expect(diffServerConfigs(config(base), renamed).changed).toEqual([]);
    expect(diffServerConfigs(config(base), renamed).unchanged).toContain('files');
  });
});
