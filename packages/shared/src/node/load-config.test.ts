import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { loadConfig } from '../node.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-shared-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function writeText(path: string, text: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text, 'utf8');
  return path;
}

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads a JSONC file, expands variables and resolves paths against its directory', async () => {
    const file = await writeText(
      join(directory, 'conf', 'config.json'),
      `{
        // the contract's example uses comments
        "mcpServers": {
          "files": { "command": "npx", "args": ["\${ROOT}"], "cwd": "work", }, /* trailing comma above */
        },
        "audit": { "file": "./audit.jsonl" },
      }`,
    );
    const config = await loadConfig(file, { env: { ROOT: '/data' } });
    expect(config.mcpServers['files']).toMatchObject({
      command: 'npx',
      args: ['/data'],
      cwd: join(directory, 'conf', 'work'),
    });
    expect(config.audit?.file).toBe(`${join(directory, 'conf')}/./audit.jsonl`);
  });

  it('names the file in validation errors, and marks a broken server without refusing the file', async () => {
    const file = await writeText(
      join(directory, 'config.json'),
      '{ "mcpServers": { "x": { "command": "${UNSET_VARIABLE}" } }, "exposure": { "mode": "all" } }',
    );
    const error = await rejection(loadConfig(file, { env: {} }));
    expect(error.file).toBe(file);
    expect(error.issues).toEqual([{ path: 'exposure.mode', message: 'expected one of "meta", "proxy"' }]);
    expect(error.message).toContain(file);

    const serversOnly = await writeText(
      join(directory, 'servers-only.json'),
      '{ "mcpServers": { "x": { "command": "${UNSET_VARIABLE}" }, "y": { "command": "run-y", "arg": [] } } }',
    );
    const config = await loadConfig(serversOnly, { env: {} });
    expect(config.mcpServers['x']?.configError).toBe(
      'mcpServers.x.command: environment variable UNSET_VARIABLE is not set',
    );
    expect(config.mcpServers['y']).not.toHaveProperty('configError');
    expect(config.warnings).toEqual(['mcpServers.y.arg: unknown key, ignored; did you mean "args"?']);
  });

  it('reads a Claude Code ~/.claude.json: user scope plus the project scope of the given directory', async () => {
    const file = await writeText(
      join(directory, '.claude.json'),
      JSON.stringify({
        numStartups: 12,
        mcpServers: { shared: { command: 'user-shared' }, user: { type: 'stdio', command: 'user-only' } },
        projects: {
          '/work/app': {
            allowedTools: [],
            mcpServers: { shared: { command: 'project-shared' }, local: { type: 'http', url: 'https://h/mcp' } },
          },
          '/work/other': { mcpServers: { elsewhere: { command: 'x' } } },
        },
      }),
    );
    const config = await loadConfig(file, { env: {}, projectDirectory: '/work/app' });
    expect(Object.keys(config.mcpServers)).toEqual(['shared', 'user', 'local']);
    expect(config.mcpServers['shared']).toMatchObject({ command: 'project-shared' });
    expect(config.mcpServers['local']).toMatchObject({ transport: 'http', url: 'https://h/mcp' });
    expect(config.projects).toEqual({});
    expect(config.warnings).toEqual([]);

    const userOnly = await loadConfig(file, { env: {}, projectDirectory: '/somewhere/else' });
    expect(Object.keys(userOnly.mcpServers)).toEqual(['shared', 'user']);
    expect(userOnly.mcpServers['shared']).toMatchObject({ command: 'user-shared' });
  });

  it('reports a missing file, naming the path', async () => {
    const file = join(directory, 'missing.json');
    const error = await rejection(loadConfig(file));
    expect(error.message).toBe(`Config file not found: ${file}`);
    expect(error.file).toBe(file);
    expect(error.issues).toHaveLength(1);
  });

  it('reports a directory given as the file', async () => {
    const error = await rejection(loadConfig(directory));
    expect(error.message).toContain('is a directory');
    expect(error.message).toContain(directory);
  });

  it('reports any other read failure with its code and the path', async () => {
    const file = await writeText(join(directory, 'plain.json'), '{}');
    const error = await rejection(loadConfig(join(file, 'below-a-file.json')));
    expect(error.message).toContain('Cannot read config file');
    expect(error.message).toContain('(ENOTDIR)');
    expect(error.message).toContain('below-a-file.json');
  });

  it('reports bad JSON with line and column, without quoting the file', async () => {
    const file = await writeText(
      join(directory, 'bad.json'),
      '{\n  "mcpServers": {\n    "x": { "env": { "TOKEN": "SECRET-VALUE" } }\n    "y": {}\n  }\n}',
    );
    const error = await rejection(loadConfig(file));
    expect(error.issues).toEqual([{ path: '', message: 'invalid JSON at line 4, column 5: expected "," or "}"' }]);
    expect(error.message).toContain('line 4, column 5');
    expect(error.message).toContain(file);
    expect(error.message).not.toContain('SECRET');
  });

  it('resolves a relative path against the current directory', async () => {
    const file = await writeText(join(directory, 'relative.json'), '{ "mcpServers": {} }');
    const error = await rejection(loadConfig(relative(process.cwd(), join(directory, 'absent.json'))));
    expect(error.file).toBe(join(directory, 'absent.json'));
    await expect(loadConfig(relative(process.cwd(), file))).resolves.toMatchObject({ mcpServers: {} });
  });
});
