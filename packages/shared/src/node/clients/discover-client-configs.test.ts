import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientConfigLocations, discoverClientConfigs } from '../../node.js';

let root: string;
let home: string;
let project: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'search-mcp-clients-'));
  home = join(root, 'home');
  project = join(root, 'work', 'app');
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, content: unknown): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2), 'utf8');
  return path;
}

const server = (name: string) => ({ command: 'npx', args: ['-y', name] });

/** Every client's files for one platform, with one server each named after where it is. */
async function layOutEveryClient(appData: string, claudeDirectory = home) {
  const files = {
    claudeDesktop: await put(join(appData, 'Claude', 'claude_desktop_config.json'), {
      mcpServers: { desktop: server('desktop') },
      globalShortcut: 'Ctrl+Space',
    }),
    claudeCode: await put(join(claudeDirectory, '.claude.json'), {
      numStartups: 3,
      mcpServers: { 'code-user': { type: 'stdio', ...server('code-user') } },
      projects: {
        [project]: { allowedTools: [], mcpServers: { 'code-local': server('code-local') } },
        [join(root, 'elsewhere')]: { mcpServers: { other: server('other') } },
      },
    }),
    claudeCodeProject: await put(join(project, '.mcp.json'), {
      mcpServers: { 'code-project': server('code-project') },
    }),
    cursorUser: await put(join(home, '.cursor', 'mcp.json'), { mcpServers: { 'cursor-user': server('cursor-user') } }),
    cursorProject: await put(join(project, '.cursor', 'mcp.json'), {
      mcpServers: { 'cursor-project': server('cursor-project') },
    }),
    vscodeUser: await put(join(appData, 'Code', 'User', 'mcp.json'), {
      servers: { 'vscode-user': { type: 'stdio', ...server('vscode-user') } },
      inputs: [],
    }),
    vscodeSettings: await put(
      join(appData, 'Code', 'User', 'settings.json'),
      '{\n  // editor settings with comments\n  "editor.fontSize": 14,\n  "mcp": { "servers": { "vscode-settings": { "type": "stdio", "command": "npx", "args": ["-y", "vscode-settings"] } } },\n}',
    ),
    vscodeProject: await put(join(project, '.vscode', 'mcp.json'), {
      servers: { 'vscode-project': { type: 'stdio', ...server('vscode-project') } },
    }),
    windsurf: await put(join(home, '.codeium', 'windsurf', 'mcp_config.json'), {
      mcpServers: { windsurf: { serverUrl: 'https://h/mcp' } },
    }),
  };
  return files;
}

function summary(found: Awaited<ReturnType<typeof discoverClientConfigs>>) {
  return found.map((config) => ({
    client: config.client,
    scope: config.scope,
    path: config.path,
    serverListPath: config.serverListPath,
    servers: Object.keys(config.servers),
    problems: config.problems,
  }));
}

describe('discoverClientConfigs', () => {
  it.each([
    ['linux', () => join(home, '.config'), () => ({})],
    ['darwin', () => join(home, 'Library', 'Application Support'), () => ({})],
    ['win32', () => join(root, 'Roaming'), () => ({ APPDATA: join(root, 'Roaming') })],
  ] as const)('finds every client on %s', async (platform, appDataOf, environmentOf) => {
    const files = await layOutEveryClient(appDataOf());
    const environment = environmentOf();
    const found = await discoverClientConfigs({
      platform,
      homeDirectory: home,
      projectDirectory: project,
      environment,
    });
    expect(summary(found)).toEqual([
      {
        client: 'claude-desktop',
        scope: 'user',
        path: files.claudeDesktop,
        serverListPath: ['mcpServers'],
        servers: ['desktop'],
        problems: [],
      },
      {
        client: 'claude-code',
        scope: 'user',
        path: files.claudeCode,
        serverListPath: ['mcpServers'],
        servers: ['code-user'],
        problems: [],
      },
      {
        client: 'claude-code',
        scope: 'local',
        path: files.claudeCode,
        serverListPath: ['projects', project, 'mcpServers'],
        servers: ['code-local'],
        problems: [],
      },
      {
        client: 'claude-code',
        scope: 'project',
        path: files.claudeCodeProject,
        serverListPath: ['mcpServers'],
        servers: ['code-project'],
        problems: [],
      },
      {
        client: 'cursor',
        scope: 'user',
        path: files.cursorUser,
        serverListPath: ['mcpServers'],
        servers: ['cursor-user'],
        problems: [],
      },
      {
        client: 'cursor',
        scope: 'project',
        path: files.cursorProject,
        serverListPath: ['mcpServers'],
        servers: ['cursor-project'],
        problems: [],
      },
      {
        client: 'vscode',
        scope: 'user',
        path: files.vscodeUser,
        serverListPath: ['servers'],
        servers: ['vscode-user'],
        problems: [],
      },
      {
        client: 'vscode',
        scope: 'user',
        path: files.vscodeSettings,
        serverListPath: ['mcp', 'servers'],
        servers: ['vscode-settings'],
        problems: [],
      },
      {
        client: 'vscode',
        scope: 'project',
        path: files.vscodeProject,
        serverListPath: ['servers'],
        servers: ['vscode-project'],
        problems: [],
      },
      {
        client: 'windsurf',
        scope: 'user',
        path: files.windsurf,
        serverListPath: ['mcpServers'],
        servers: ['windsurf'],
        problems: [],
      },
    ]);
    // The entries are returned as written, in the client's own words.
    expect(found.at(-1)?.servers['windsurf']).toEqual({ serverUrl: 'https://h/mcp' });
  });

  it('finds nothing on a machine without clients', async () => {
    await expect(
      discoverClientConfigs({ platform: 'linux', homeDirectory: home, projectDirectory: project, environment: {} }),
    ).resolves.toEqual([]);
  });

  it('uses the platform default when APPDATA or XDG_CONFIG_HOME is not set, and them when they are', async () => {
    const windowsDefault = await put(join(home, 'AppData', 'Roaming', 'Claude', 'claude_desktop_config.json'), {
      mcpServers: {},
    });
    const xdg = await put(join(root, 'xdg', 'Claude', 'claude_desktop_config.json'), { mcpServers: {} });
    const paths = async (platform: NodeJS.Platform, environment: Record<string, string>) =>
      (await discoverClientConfigs({ platform, homeDirectory: home, projectDirectory: project, environment })).map(
        (config) => config.path,
      );
    expect(await paths('win32', {})).toEqual([windowsDefault]);
    expect(await paths('linux', { XDG_CONFIG_HOME: join(root, 'xdg') })).toEqual([xdg]);
    expect(await paths('linux', {})).toEqual([]);
  });

  it('reads Claude Code from $CLAUDE_CONFIG_DIR when it is set', async () => {
    const moved = await put(join(root, 'claude-config', '.claude.json'), { mcpServers: { moved: server('moved') } });
    await put(join(home, '.claude.json'), { mcpServers: { stale: server('stale') } });
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: { CLAUDE_CONFIG_DIR: join(root, 'claude-config') },
    });
    expect(summary(found).map(({ path, servers }) => ({ path, servers }))).toEqual([
      { path: moved, servers: ['moved'] },
    ]);
  });

  it('matches a project key written with a trailing slash, or on Windows with backslashes and in another case', async () => {
    const file = join(home, '.claude.json');
    const local = async (platform: NodeJS.Platform, key: string) => {
      await put(file, { projects: { [key]: { mcpServers: { local: server('local') } } } });
      const found = await discoverClientConfigs({
        platform,
        homeDirectory: home,
        projectDirectory: project,
        environment: { APPDATA: root },
      });
      return summary(found).map(({ scope, serverListPath }) => ({ scope, serverListPath }));
    };
    expect(await local('linux', `${project}/`)).toEqual([
      { scope: 'local', serverListPath: ['projects', `${project}/`, 'mcpServers'] },
    ]);
    const windowsKey = project.toUpperCase().replace(/\//g, '\\');
    expect(await local('win32', windowsKey)).toEqual([
      { scope: 'local', serverListPath: ['projects', windowsKey, 'mcpServers'] },
    ]);
    // Case counts on Linux and macOS.
    expect(await local('linux', project.toUpperCase())).toEqual([]);
  });

  it('lists a dedicated MCP file without servers, but not settings files without an MCP section', async () => {
    const desktop = await put(join(home, '.config', 'Claude', 'claude_desktop_config.json'), { globalShortcut: '' });
    await put(join(home, '.config', 'Code', 'User', 'settings.json'), { 'editor.fontSize': 14 });
    await put(join(home, '.claude.json'), { numStartups: 1, projects: { [project]: { allowedTools: [] } } });
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: {},
    });
    expect(summary(found)).toEqual([
      {
        client: 'claude-desktop',
        scope: 'user',
        path: desktop,
        serverListPath: ['mcpServers'],
        servers: [],
        problems: [],
      },
    ]);
  });

  it('reads a flat "mcp.servers" key of VS Code settings', async () => {
    await put(join(home, '.config', 'Code - Insiders', 'User', 'settings.json'), {
      'mcp.servers': { flat: { type: 'stdio', ...server('flat') } },
    });
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: {},
    });
    expect(summary(found)).toMatchObject([{ client: 'vscode', serverListPath: ['mcp.servers'], servers: ['flat'] }]);
  });

  it('reads a project file once when the project is the home directory', async () => {
    await put(join(home, '.cursor', 'mcp.json'), { mcpServers: { once: server('once') } });
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: home,
      environment: {},
    });
    expect(summary(found)).toMatchObject([{ client: 'cursor', scope: 'user', servers: ['once'] }]);
  });

  it('reports broken files and entries without throwing, never quoting their content', async () => {
    const secret = 'ghp_SECRETSECRETSECRET1234';
    const badJson = await put(
      join(home, '.cursor', 'mcp.json'),
      `{ "mcpServers": { "x": { "env": { "T": "${secret}" } } `,
    );
    const notObject = await put(join(home, '.codeium', 'windsurf', 'mcp_config.json'), '[1, 2]');
    const badList = await put(join(project, '.mcp.json'), { mcpServers: ['a'] });
    const badEntry = await put(join(project, '.cursor', 'mcp.json'), {
      mcpServers: { good: server('good'), text: secret, list: [1] },
    });
    const directory = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    await mkdir(directory, { recursive: true });

    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: {},
    });
    expect(summary(found)).toEqual([
      {
        client: 'claude-desktop',
        scope: 'user',
        path: directory,
        serverListPath: ['mcpServers'],
        servers: [],
        problems: [`Config path is a directory, not a file: ${directory}`],
      },
      {
        client: 'claude-code',
        scope: 'project',
        path: badList,
        serverListPath: ['mcpServers'],
        servers: [],
        problems: ['mcpServers: expected an object of servers, got array'],
      },
      {
        client: 'cursor',
        scope: 'user',
        path: badJson,
        serverListPath: ['mcpServers'],
        servers: [],
        problems: ['invalid JSON at line 1, column 73: expected "," or "}"'],
      },
      {
        client: 'cursor',
        scope: 'project',
        path: badEntry,
        serverListPath: ['mcpServers'],
        servers: ['good'],
        problems: ['mcpServers.text: expected an object, got string', 'mcpServers.list: expected an object, got array'],
      },
      {
        client: 'windsurf',
        scope: 'user',
        path: notObject,
        serverListPath: ['mcpServers'],
        servers: [],
        problems: ['expected an object at the top level, got array'],
      },
    ]);
    expect(JSON.stringify(found.map((config) => config.problems))).not.toContain('SECRET');
  });

  it('reports a file it cannot read for another reason, with the reason', async () => {
    // A loop of links: readable by nobody, root included.
    const file = join(home, '.cursor', 'mcp.json');
    await mkdir(join(home, '.cursor'), { recursive: true });
    await symlink(join(home, '.cursor', 'loop.json'), file);
    await symlink(file, join(home, '.cursor', 'loop.json'));
    const found = await discoverClientConfigs({
      platform: 'linux',
      homeDirectory: home,
      projectDirectory: project,
      environment: {},
    });
    expect(summary(found)).toMatchObject([
      { client: 'cursor', path: file, problems: [`Cannot read config file ${file} (ELOOP)`] },
    ]);
  });
});

describe('clientConfigLocations', () => {
  it('names every place looked at, for "nothing found" messages', () => {
    const locations = clientConfigLocations({
      platform: 'darwin',
      homeDirectory: '/Users/me',
      projectDirectory: '/p',
      environment: {},
    });
    expect(locations.map((location) => location.path)).toEqual([
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/me/.claude.json',
      '/p/.mcp.json',
      '/Users/me/.cursor/mcp.json',
      '/p/.cursor/mcp.json',
      '/Users/me/Library/Application Support/Code/User/mcp.json',
      '/Users/me/Library/Application Support/Code/User/settings.json',
      '/Users/me/Library/Application Support/Code - Insiders/User/mcp.json',
      '/Users/me/Library/Application Support/Code - Insiders/User/settings.json',
      '/p/.vscode/mcp.json',
      '/Users/me/.codeium/windsurf/mcp_config.json',
    ]);
  });
});
