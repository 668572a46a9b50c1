import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { findAndLoadConfig, JsonSyntaxError, loadConfig, parseJsonWithComments, resolveConfigPath } from './node.js';

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

describe('parseJsonWithComments', () => {
  it('parses plain JSON like JSON.parse', () => {
    const text = '{"a": [1, -2.5, 3e2, true, false, null], "b": "x\\n\\u00e9\\"", "c": {}}';
    expect(parseJsonWithComments(text)).toEqual(JSON.parse(text));
  });

  it('ignores line and block comments outside strings', () => {
    const text = `// leading
{
  "url": "https://host/mcp", // a URL's "//" stays
  /* block
     comment */ "glob": "src/**/*.ts", "note": "/* not a comment */"
}
/* trailing */`;
    expect(parseJsonWithComments(text)).toEqual({
      url: 'https://host/mcp',
      glob: 'src/**/*.ts',
      note: '/* not a comment */',
    });
  });

  it('accepts trailing commas in objects and arrays', () => {
    expect(parseJsonWithComments('{ "a": [1, 2, ], "b": { "c": 1, /* x */ }, }')).toEqual({ a: [1, 2], b: { c: 1 } });
  });

  it('does not accept an empty element or a lone comma', () => {
    expect(() => parseJsonWithComments('[1,,2]')).toThrow(JsonSyntaxError);
    expect(() => parseJsonWithComments('[,]')).toThrow(JsonSyntaxError);
    expect(() => parseJsonWithComments('{,}')).toThrow(JsonSyntaxError);
  });

  it('skips a byte order mark', () => {
    expect(parseJsonWithComments('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('keeps "__proto__" an ordinary key', () => {
    const value = parseJsonWithComments('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('reports line and column of syntax errors', () => {
    const cases: Array<[string, number, number, string]> = [
      ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}"'],
      ['{"a": }', 1, 7, 'expected a value'],
      ['{\n  "a": "unterminated\n}', 2, 21, 'control character in string (use an escape such as \\n)'],
      ['{"a": "open', 1, 7, 'unterminated string'],
      ['{"a": 1} x', 1, 10, 'unexpected content after the end of the document'],
      ['{ /* never closed', 1, 3, 'unterminated comment'],
      ["{'a': 1}", 1, 2, 'expected a property name in double quotes'],
      ['[1 2]', 1, 4, 'expected "," or "]"'],
      ['{"a" 1}', 1, 6, 'expected ":" after a property name'],
      ['{"a": "\\x"}', 1, 8, 'invalid escape in string'],
      ['', 1, 1, 'unexpected end of file, expected a value'],
    ];
    for (const [text, line, column, description] of cases) {
      let caught: unknown;
      try {
        parseJsonWithComments(text);
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(JsonSyntaxError);
      expect(caught, text).toMatchObject({ line, column });
      expect((caught as Error).message, text).toBe(`invalid JSON at line ${line}, column ${column}: ${description}`);
    }
  });
});

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

  it('names the file in validation errors', async () => {
    const file = await writeText(
      join(directory, 'config.json'),
      '{ "mcpServers": { "x": { "command": "${UNSET_VARIABLE}" } } }',
    );
    const error = await rejection(loadConfig(file, { env: {} }));
    expect(error.file).toBe(file);
    expect(error.issues).toEqual([
      { path: 'mcpServers.x.command', message: 'environment variable UNSET_VARIABLE is not set' },
    ]);
    expect(error.message).toContain(file);
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
