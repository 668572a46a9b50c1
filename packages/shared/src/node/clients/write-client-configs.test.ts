import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/config-error.js';
import {
  discoverClientConfigs,
  loadConfig,
  renderClientSnippet,
  replaceClientServers,
  writeMergedConfig,
} from '../../node.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-writes-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** Every file of the directory but the ones named: no temporary file may be left behind. */
async function otherFiles(...known: string[]): Promise<string[]> {
  return (await readdir(directory)).filter((name) => !known.includes(name));
}

const snippet = renderClientSnippet('claude-desktop', { command: 'npx', args: ['-y', '@search-mcp/cli'] });
const BACKUP_NAME = /^claude_desktop_config\.json\.\d{8}-\d{6}(?:-\d+)?\.bak$/;

describe('writeMergedConfig', () => {
  const config = {
    mcpServers: { memory: { command: 'npx', args: ['-y', 'server-memory'], env: { TOKEN: 'abcd1234' } } },
  };

  it('creates the file and its directories, readable by its owner only', async () => {
    const path = join(directory, 'nested', 'search-mcp', 'config.json');
    await expect(writeMergedConfig(path, config)).resolves.toEqual({ path });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(config);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(loadConfig(path, { env: {} })).resolves.toMatchObject({ mcpServers: { memory: { command: 'npx' } } });
  });

  it('refuses to replace an existing file unless asked, leaving it untouched', async () => {
    const path = join(directory, 'config.json');
    await writeFile(path, '{ "mine": true }');
    const error = await rejection(writeMergedConfig(path, config));
    expect(error.message).toBe(`${path} already exists; it is replaced only when asked to (overwrite), after a backup`);
    expect(error.file).toBe(path);
    expect(await readFile(path, 'utf8')).toBe('{ "mine": true }');
    await rejection(writeMergedConfig(path, config, { overwrite: false }));
    expect(await otherFiles('config.json')).toEqual([]);
  });

  it('replaces when asked, after a timestamped backup of the old content with the same mode', async () => {
    const path = join(directory, 'config.json');
    await writeFile(path, '{ "mine": true }', { mode: 0o640 });
    const first = await writeMergedConfig(path, config, { overwrite: true });
    expect(first.backupPath).toMatch(/config\.json\.\d{8}-\d{6}\.bak$/);
    expect(await readFile(first.backupPath ?? '', 'utf8')).toBe('{ "mine": true }');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(config);
    if (process.platform !== 'win32') {
      expect((await stat(path)).mode & 0o777).toBe(0o640);
      expect((await stat(first.backupPath ?? '')).mode & 0o777).toBe(0o640);
    }

    // A second backup within the same second never replaces the first.
    const second = await writeMergedConfig(path, { mcpServers: {} }, { overwrite: true });
    expect(second.backupPath).not.toBe(first.backupPath);
    expect(await readFile(first.backupPath ?? '', 'utf8')).toBe('{ "mine": true }');
    expect(JSON.parse(await readFile(second.backupPath ?? '', 'utf8'))).toEqual(config);
    expect(
      (await otherFiles('config.json')).every((name) => /^config\.json\.\d{8}-\d{6}(-\d+)?\.bak$/.test(name)),
    ).toBe(true);
  });
});

describe('replaceClientServers', () => {
  it('refuses without { backup: true }', async () => {
    const path = join(directory, 'claude_desktop_config.json');
    await writeFile(path, '{ "mcpServers": {} }');
    // @ts-expect-error: the flag is required by the type too
    const error = await rejection(replaceClientServers(path, snippet, {}));
    expect(error.message).toContain('only with { backup: true }');
    expect(await otherFiles('claude_desktop_config.json')).toEqual([]);
  });

  it("replaces the client's servers with Search MCP, keeping every other key, order, indentation and the final newline", async () => {
    const path = join(directory, 'claude_desktop_config.json');
    const original =
      '{\n    "globalShortcut": "Alt+Space",\n    "mcpServers": {\n        "github": { "command": "npx", "env": { "T": "ghp_secret_value" } }\n    },\n    "preferences": { "x": 1 }\n}\n';
    await writeFile(path, original, { mode: 0o600 });
    const result = await replaceClientServers(path, snippet, { backup: true });

    expect(result.path).toBe(path);
    expect(basename(result.backupPath)).toMatch(BACKUP_NAME);
    expect(await readFile(result.backupPath, 'utf8')).toBe(original);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(
      '{\n    "globalShortcut": "Alt+Space",\n    "mcpServers": {\n        "search-mcp": {\n            "command": "npx",\n' +
        '            "args": [\n                "-y",\n                "@search-mcp/cli"\n            ]\n        }\n    },\n' +
        '    "preferences": {\n        "x": 1\n    }\n}\n',
    );
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await otherFiles('claude_desktop_config.json', basename(result.backupPath))).toEqual([]);
  });

  it('rewrites the place discovery found: a Claude Code local scope inside ~/.claude.json', async () => {
    const home = join(directory, 'home');
    const project = join(directory, 'app');
    await mkdir(home, { recursive: true });
    const path = join(home, '.claude.json');
    await writeFile(
      path,
      JSON.stringify({
        numStartups: 4,
        mcpServers: { user: { command: 'u' } },
        projects: { [project]: { allowedTools: ['x'], mcpServers: { local: { command: 'l' } } } },
      }),
    );
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: {},
    });
    const local = found.find((config) => config.scope === 'local');
    expect(local?.serverListPath).toEqual(['projects', project, 'mcpServers']);

    const claudeCode = renderClientSnippet('claude-code', { command: 'search-mcp', platform: 'linux' });
    await replaceClientServers(path, claudeCode, { backup: true, serverListPath: local?.serverListPath ?? [] });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      numStartups: 4,
      mcpServers: { user: { command: 'u' } },
      projects: {
        [project]: {
          allowedTools: ['x'],
          mcpServers: { 'search-mcp': { type: 'stdio', command: 'search-mcp', args: [] } },
        },
      },
    });
  });

  it('creates the list where a VS Code settings file has none yet, and keeps a byte order mark and CRLF', async () => {
    const path = join(directory, 'settings.json');
    await writeFile(path, '\uFEFF{\r\n\t"editor.fontSize": 14\r\n}\r\n');
    const vscode = renderClientSnippet('vscode', { command: 'search-mcp' });
    await replaceClientServers(path, vscode, { backup: true, serverListPath: ['mcp', 'servers'] });
    expect(await readFile(path, 'utf8')).toBe(
      '\uFEFF{\r\n\t"editor.fontSize": 14,\r\n\t"mcp": {\r\n\t\t"servers": {\r\n\t\t\t"search-mcp": {\r\n\t\t\t\t"type": "stdio",\r\n' +
        '\t\t\t\t"command": "search-mcp",\r\n\t\t\t\t"args": []\r\n\t\t\t}\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('refuses a file with comments, which rewriting would drop, and changes nothing', async () => {
    const path = join(directory, 'settings.json');
    const original = '{\n  // my font\n  "editor.fontSize": 14,\n  "mcp": { "servers": {} },\n}\n';
    await writeFile(path, original);
    const error = await rejection(
      replaceClientServers(path, renderClientSnippet('vscode', { command: 'search-mcp' }), { backup: true }),
    );
    expect(error.message).toBe(
      `${path} has comments or trailing commas, which rewriting would drop; paste the snippet by hand instead`,
    );
    expect(await readFile(path, 'utf8')).toBe(original);
    expect(await otherFiles('settings.json')).toEqual([]);
  });

  it('refuses broken JSON, a missing file and a list path through a non-object, never quoting the file', async () => {
    const broken = join(directory, 'broken.json');
    await writeFile(broken, '{ "mcpServers": { "x": "ghp_secret_value" ');
    const brokenError = await rejection(replaceClientServers(broken, snippet, { backup: true }));
    expect(brokenError.message).toMatch(
      /is not valid JSON \(invalid JSON at line 1, column \d+: .*\); nothing was changed$/,
    );
    expect(brokenError.message).not.toContain('ghp_secret_value');

    const missing = join(directory, 'missing.json');
    expect((await rejection(replaceClientServers(missing, snippet, { backup: true }))).message).toBe(
      `Config file not found: ${missing}`,
    );

    const odd = join(directory, 'odd.json');
    await writeFile(odd, '{ "mcp": "ghp_secret_value" }');
    const oddError = await rejection(
      replaceClientServers(odd, snippet, { backup: true, serverListPath: ['mcp', 'servers'] }),
    );
    expect(oddError.message).toBe(`${odd} mcp: expected an object, got string`);
    expect(await readFile(odd, 'utf8')).toBe('{ "mcp": "ghp_secret_value" }');
    expect(await otherFiles('broken.json', 'odd.json')).toEqual([]);
  });
});
