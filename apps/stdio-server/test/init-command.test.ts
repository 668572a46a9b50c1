import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memoryServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built binary, in `cwd` (the project whose project-scope files are read), with no config variable set. */
function runCli(args: string[], cwd: string): Promise<Outcome> {
  const { SEARCH_MCP_CONFIG: _config, XDG_CONFIG_HOME: _xdg, APPDATA: _appData, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: unknown }).code as number) : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

let root: string;
let home: string;
let project: string;

async function put(path: string, content: unknown): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2), 'utf8');
  return path;
}

/** Every file under `directory` with its content: what a run must leave untouched. */
async function snapshot(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path] = await readFile(path, 'utf8');
  }
  return files;
}

const memory = { command: process.execPath, args: [memoryServer] };

/**
 * A Linux user with every client, each in its own dialect: Claude Desktop, Claude Code (user and local scope in
 * ~/.claude.json, project `.mcp.json`), Cursor (user, and a broken project file), VS Code (`servers` with `type`,
 * `settings.json` with comments), Windsurf (`serverUrl`), plus a Cline-style `disabled`, one server listed by two
 * clients under two names, and an entry that is Search MCP itself.
 */
async function layOutLinuxHome() {
  const config = join(home, '.config');
  // search-mcp installed elsewhere (an npm prefix), started by path: Search MCP itself, whatever the path looks like.
  const installed = join(root, 'prefix', 'lib', 'node_modules', '@search-mcp', 'cli');
  await mkdir(dirname(installed), { recursive: true });
  await symlink(dirname(dirname(cli)), installed);
  return {
    claudeDesktop: await put(join(config, 'Claude', 'claude_desktop_config.json'), {
      mcpServers: {
        memory: { ...memory, env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } },
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_not_a_real_token_1234' },
        },
        'search-mcp': { command: 'npx', args: ['-y', '@search-mcp/cli'] },
      },
      globalShortcut: 'Ctrl+Space',
    }),
    claudeCode: await put(join(home, '.claude.json'), {
      numStartups: 12,
      mcpServers: {
        everything: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
      },
      projects: {
        [project]: { allowedTools: [], mcpServers: { 'local-fetch': { command: 'uvx', args: ['mcp-server-fetch'] } } },
      },
    }),
    claudeCodeProject: await put(join(project, '.mcp.json'), {
      mcpServers: { sentry: { type: 'http', url: 'https://mcp.sentry.dev/mcp' } },
    }),
    cursorUser: await put(join(home, '.cursor', 'mcp.json'), {
      mcpServers: {
        'memory-copy': { ...memory, env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } },
        puppeteer: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-puppeteer'], disabled: true },
      },
    }),
    cursorProject: await put(join(project, '.cursor', 'mcp.json'), '{ "mcpServers": { "half": { "command": "npx", '),
    vscodeUser: await put(join(config, 'Code', 'User', 'mcp.json'), {
      servers: { playwright: { type: 'stdio', command: 'npx', args: ['@playwright/mcp@latest'] } },
      inputs: [],
    }),
    vscodeSettings: await put(
      join(config, 'Code', 'User', 'settings.json'),
      '{\n  // my editor\n  "editor.fontSize": 14,\n  "mcp": { "servers": { "time": { "type": "stdio", "command": "uvx", "args": ["mcp-server-time"] } } },\n}\n',
    ),
    windsurf: await put(join(home, '.codeium', 'windsurf', 'mcp_config.json'), {
      mcpServers: {
        linear: { serverUrl: 'https://mcp.linear.app/sse' },
        'search-mcp': { command: process.execPath, args: [join(installed, 'dist', 'cli.js'), '--config', 'x.json'] },
      },
    }),
  };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'search-mcp-init-'));
  home = join(root, 'home');
  project = join(root, 'work', 'app');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('search-mcp init', () => {
  it('without flags reports every client file and the merged config, and changes nothing', async () => {
    const files = await layOutLinuxHome();
    const before = await snapshot(root);
    const outcome = await runCli(['init', '--home', home, '--platform', 'linux'], project);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(await snapshot(root)).toEqual(before);
    const text = outcome.stdout;
    for (const path of Object.values(files)) expect(text).toContain(path);
    expect(text).toContain('Found 9 MCP client configs:');
    expect(text).toContain('servers: memory, github, search-mcp');
    expect(text).toContain('servers: memory-copy (as memory), puppeteer');
    expect(text).toMatch(/Cursor \(project\): .*\n {6}cannot read it: invalid JSON at line 1/);
    // One server listed twice under two names is merged once; Search MCP itself is skipped, saying why.
    expect(text).toContain('mcpServers["memory-copy"]: the same server as "memory" from Claude Desktop');
    expect(text).toContain('mcpServers["search-mcp"]: skipped: it runs Search MCP itself');
    expect(text).toMatch(
      /mcp_config\.json: mcpServers\["search-mcp"\]: skipped: it runs Search MCP itself \(this very program\)/,
    );
    expect(text).toContain(
      'Search MCP config with 9 servers: memory, github, everything, local-fetch, sentry, puppeteer, playwright, time, linear',
    );
    // Secrets stay off the terminal.
    expect(text).not.toContain('ghp_not_a_real_token_1234');
    expect(text).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "<hidden>"');
    expect(text).toContain(`Nothing was written. It would go to ${join(home, '.config', 'search-mcp', 'config.json')}`);
    // search-mcp is not on this PATH: the suggested command starts this very program, as it was run.
    expect(text).toContain(`Write it with: ${process.execPath} ${cli} init --write --home ${home} --platform linux`);
    // Claude Code gets `claude mcp` lines for its three scopes; the file clients get JSON.
    expect(text).toContain('claude mcp remove --scope user everything');
    expect(text).toContain('claude mcp remove --scope local local-fetch');
    expect(text).toContain('claude mcp remove --scope project sentry');
    expect(text).toMatch(/claude mcp add --scope user search-mcp -- \S+ \S+cli\.js --config \S+config\.json/);
    expect(text).toContain(
      `Or let init do it, keeping a backup next to each file: ${process.execPath} ${cli} init --write --replace-in`,
    );
  });

  it('--json carries the same facts, other clients words in ours', async () => {
    await layOutLinuxHome();
    const outcome = await runCli(['init', '--json', '--home', home, '--platform', 'linux'], project);
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as {
      clients: Array<{ client: string; scope: string; servers: string[]; problems: string[] }>;
      merged: { servers: string[]; config: { mcpServers: Record<string, Record<string, unknown>> } };
      warnings: string[];
      target: { action: string; existed: boolean };
      snippets: Array<{ client: string; format: string }>;
      lookedAt: Array<{ path: string; found: boolean }>;
    };
    expect(report.clients.map((file) => `${file.client}/${file.scope}`)).toEqual([
      'claude-desktop/user',
      'claude-code/user',
      'claude-code/local',
      'claude-code/project',
      'cursor/user',
      'cursor/project',
      'vscode/user',
      'vscode/user',
      'windsurf/user',
    ]);
    expect(report.clients.find((file) => file.scope === 'project' && file.client === 'cursor')?.problems).toHaveLength(
      1,
    );
    const servers = report.merged.config.mcpServers;
    expect(servers['linear']).toMatchObject({ url: 'https://mcp.linear.app/sse' });
    expect(servers['puppeteer']).toMatchObject({ enabled: false });
    expect(servers['github']?.['env']).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '<hidden>' });
    expect(report.target).toMatchObject({ action: 'dry-run', existed: false });
    expect(report.snippets.map((snippet) => `${snippet.client}:${snippet.format}`)).toEqual([
      'claude-desktop:json',
      'claude-code:shell',
      'cursor:json',
      'vscode:json',
      'windsurf:json',
    ]);
    expect(report.lookedAt.filter((place) => !place.found).length).toBeGreaterThan(0);
  });

  it('--write writes a config that serves the merged servers, and replaces it only with --force, after a backup', async () => {
    await layOutLinuxHome();
    const target = join(root, 'search-mcp.json');
    const written = await runCli(['init', target, '--write', '--home', home, '--platform', 'linux'], project);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`Wrote ${target}`);
    const config = JSON.parse(await readFile(target, 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    // The file keeps what the terminal did not show.
    expect(config.mcpServers['github']?.['env']).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_not_a_real_token_1234' });

    // The written config runs: its real memory server answers through search-mcp.
    const serving = { mcpServers: { memory: config.mcpServers['memory'] } };
    await writeFile(join(root, 'serving.json'), JSON.stringify(serving));
    const listed = await runCli(['list', '--server', 'memory', '--config', join(root, 'serving.json')], project);
    expect(listed.stdout).toContain('memory:create_entities');
    expect(listed.code).toBe(0);

    // Someone edits it; a second run refuses to replace it, then replaces it with --force, keeping both.
    config.mcpServers['mine'] = { command: 'my-server' };
    const edited = `${JSON.stringify({ ...config, search: { maxResults: 7 } }, null, 2)}\n`;
    await writeFile(target, edited);
    const refused = await runCli(['init', target, '--write', '--home', home, '--platform', 'linux'], project);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `search-mcp: ${target} already exists; add --force to replace it (its servers are kept and a backup is written next to it), or name another path\n`,
    });
    expect(await readFile(target, 'utf8')).toBe(edited);
    const forced = await runCli(['init', target, '--write', '--force', '--home', home, '--platform', 'linux'], project);
    expect(forced.code).toBe(0);
    const backup = /the previous file is kept as (\S+)\)/.exec(forced.stdout)?.[1];
    expect(backup).toBeDefined();
    expect(await readFile(backup as string, 'utf8')).toBe(edited);
    const replaced = JSON.parse(await readFile(target, 'utf8')) as { mcpServers: object; search: object };
    expect(Object.keys(replaced.mcpServers)[0]).toBe('memory');
    expect(replaced.mcpServers).toHaveProperty('mine');
    expect(replaced.search).toEqual({ maxResults: 7 });
  }, 90_000);

  it('--replace-in rewrites a client file after a backup; a file it cannot rewrite is left alone and said why', async () => {
    const files = await layOutLinuxHome();
    const target = join(root, 'search-mcp.json');
    const cursorBefore = await readFile(files.cursorUser, 'utf8');
    const settingsBefore = await readFile(files.vscodeSettings, 'utf8');
    const brokenBefore = await readFile(files.cursorProject, 'utf8');
    const outcome = await runCli(
      [
        'init',
        target,
        '--write',
        '--replace-in',
        'cursor',
        '--replace-in',
        'vscode',
        '--home',
        home,
        '--platform',
        'linux',
      ],
      project,
    );
    expect(outcome.code).toBe(1);
    const cursor = JSON.parse(await readFile(files.cursorUser, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(Object.keys(cursor.mcpServers)).toEqual(['search-mcp']);
    expect(cursor.mcpServers['search-mcp']?.args.slice(-2)).toEqual(['--config', target]);
    const backup = new RegExp(
      `${files.cursorUser.replace(/[.]/g, '\\.')} now starts only Search MCP \\(backup: (\\S+)\\)`,
    ).exec(outcome.stdout)?.[1];
    expect(await readFile(backup as string, 'utf8')).toBe(cursorBefore);
    // The broken Cursor file and VS Code's settings.json (comments would be lost) are untouched, with the reason.
    expect(outcome.stdout).toContain(`Cursor: ${files.cursorProject} left as it is: it could not be read`);
    expect(outcome.stdout).toMatch(/VS Code: \S+settings\.json left as it is: has comments or trailing commas/);
    expect(await readFile(files.cursorProject, 'utf8')).toBe(brokenBefore);
    expect(await readFile(files.vscodeSettings, 'utf8')).toBe(settingsBefore);
    const vscode = JSON.parse(await readFile(files.vscodeUser, 'utf8')) as { servers: object; inputs: unknown[] };
    expect(Object.keys(vscode.servers)).toEqual(['search-mcp']);
    expect(vscode.inputs).toEqual([]);

    // Run again: the entries that are Search MCP itself are skipped, and the config keeps every server.
    const again = await runCli(['init', target, '--json', '--home', home, '--platform', 'linux'], project);
    const report = JSON.parse(again.stdout) as { merged: { servers: string[] }; warnings: string[] };
    expect(report.merged.servers).toEqual(expect.arrayContaining(['memory', 'puppeteer', 'playwright', 'time']));
    expect(report.warnings.filter((warning) => warning.includes('runs Search MCP itself'))).toHaveLength(4);
  }, 90_000);

  it('finds the files of macOS and Windows homes', async () => {
    const mac = await put(join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'), {
      mcpServers: { memory },
    });
    const windows = await put(join(home, 'AppData', 'Roaming', 'Code', 'User', 'mcp.json'), {
      servers: { memory: { type: 'stdio', ...memory } },
    });
    // Both homes in one folder, each run reading only its platform's places: side by side.
    const [darwin, win32] = await Promise.all([
      runCli(['init', '--home', home, '--platform', 'darwin'], project),
      runCli(['init', '--home', home, '--platform', 'win32'], project),
    ]);
    expect(darwin.stdout).toContain(`Claude Desktop (user): ${mac}`);
    expect(darwin.stdout).not.toContain(windows);
    expect(win32.stdout).toContain(`VS Code (user): ${windows}`);
    expect(win32.stdout).not.toContain(mac);
  });

  it('says where it looked when no client config is found', async () => {
    const outcome = await runCli(['init', '--home', home, '--platform', 'linux'], project);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain(`search-mcp: No MCP client config found (linux, home ${home}). Looked at:`);
    expect(outcome.stderr).toContain(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(outcome.stderr).toContain(join(project, '.cursor', 'mcp.json'));
    expect(outcome.stderr).toContain(join(home, '.codeium', 'windsurf', 'mcp_config.json'));
  });
});
