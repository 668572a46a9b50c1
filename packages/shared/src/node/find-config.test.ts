import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { findAndLoadConfig, resolveConfigPath } from '../node.js';

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

describe('resolveConfigPath', () => {
  let cwd: string;
  let homeDir: string;
  let cwdConfig: string;
  let homeConfig: string;

  beforeEach(() => {
    cwd = join(directory, 'project');
    homeDir = join(directory, 'home');
    cwdConfig = join(cwd, 'config', 'mcp-servers.json');
    homeConfig = join(homeDir, '.config', 'search-mcp', 'config.json');
  });

  it('finds nothing when no candidate exists and nothing is given', () => {
    expect(resolveConfigPath({ env: {}, cwd, homeDir })).toBeUndefined();
  });

  it('follows the order --config, $SEARCH_MCP_CONFIG, ./config/mcp-servers.json, ~/.config/search-mcp/config.json', async () => {
    await writeText(homeConfig, '{}');
    expect(resolveConfigPath({ env: {}, cwd, homeDir })).toEqual({ path: homeConfig, source: 'home' });

    await writeText(cwdConfig, '{}');
    expect(resolveConfigPath({ env: {}, cwd, homeDir })).toEqual({ path: cwdConfig, source: 'cwd' });

    const envFile = join(directory, 'env.json');
    expect(resolveConfigPath({ env: { SEARCH_MCP_CONFIG: envFile }, cwd, homeDir })).toEqual({
      path: envFile,
      source: 'env',
    });

    const cliFile = join(directory, 'cli.json');
    expect(resolveConfigPath({ cliPath: cliFile, env: { SEARCH_MCP_CONFIG: envFile }, cwd, homeDir })).toEqual({
      path: cliFile,
      source: 'cli',
    });
  });

  it('returns --config and $SEARCH_MCP_CONFIG even when missing, resolved against cwd', () => {
    expect(resolveConfigPath({ cliPath: 'nope.json', env: {}, cwd, homeDir })).toEqual({
      path: join(cwd, 'nope.json'),
      source: 'cli',
    });
    expect(resolveConfigPath({ env: { SEARCH_MCP_CONFIG: '../other.json' }, cwd, homeDir })).toEqual({
      path: join(directory, 'other.json'),
      source: 'env',
    });
  });

  it('expands a leading ~ and ignores empty values', () => {
    expect(resolveConfigPath({ cliPath: '~/my.json', env: {}, cwd, homeDir })).toEqual({
      path: join(homeDir, 'my.json'),
      source: 'cli',
    });
    expect(resolveConfigPath({ cliPath: '', env: { SEARCH_MCP_CONFIG: '' }, cwd, homeDir })).toBeUndefined();
  });

  it('skips a candidate that is a directory', async () => {
    await mkdir(cwdConfig, { recursive: true });
    expect(resolveConfigPath({ env: {}, cwd, homeDir })).toBeUndefined();
  });
});

describe('findAndLoadConfig', () => {
  it('loads the file it finds and says where it came from', async () => {
    const cwd = join(directory, 'project');
    const file = await writeText(
      join(cwd, 'config', 'mcp-servers.json'),
      '{ "mcpServers": { "A": { "url": "https://h/mcp" } } }',
    );
    const loaded = await findAndLoadConfig({ env: {}, cwd, homeDir: join(directory, 'home') });
    expect(loaded.source).toBe('cwd');
    expect(loaded.path).toBe(file);
    expect(Object.keys(loaded.config.mcpServers)).toEqual(['a']);
  });

  it('uses env for both the path and variable expansion', async () => {
    const file = await writeText(join(directory, 'by-env.json'), '{ "mcpServers": { "s": { "command": "${TOOL}" } } }');
    const loaded = await findAndLoadConfig({
      env: { SEARCH_MCP_CONFIG: file, TOOL: 'run' },
      cwd: directory,
      homeDir: directory,
    });
    expect(loaded.source).toBe('env');
    expect(loaded.config.mcpServers['s']).toMatchObject({ command: 'run' });
  });

  it('lists every place it looked when there is no file', async () => {
    const cwd = join(directory, 'project');
    const homeDir = join(directory, 'home');
    const error = await rejection(findAndLoadConfig({ env: {}, cwd, homeDir }));
    expect(error.message).toContain('--config');
    expect(error.message).toContain('$SEARCH_MCP_CONFIG');
    expect(error.message).toContain(join(cwd, 'config', 'mcp-servers.json'));
    expect(error.message).toContain(join(homeDir, '.config', 'search-mcp', 'config.json'));
    expect(error.issues).toHaveLength(1);
  });

  it('reports a missing --config file instead of falling back', async () => {
    const cwd = join(directory, 'project');
    await writeText(join(cwd, 'config', 'mcp-servers.json'), '{ "mcpServers": {} }');
    const error = await rejection(findAndLoadConfig({ cliPath: 'absent.json', env: {}, cwd, homeDir: directory }));
    expect(error.message).toBe(`Config file not found: ${join(cwd, 'absent.json')}`);
  });
});
