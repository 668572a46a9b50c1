import { describe, expect, it } from 'vitest';
import { parseCliArguments } from './cli-arguments.js';
import { closestName } from './closest-name.js';
import { UsageError } from './usage-error.js';

function usageErrorOf(argv: string[]): UsageError {
  try {
    parseCliArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('parseCliArguments', () => {
  it('reads auth: a server to log in to, --logout with one, nothing else', () => {
    expect(parseCliArguments(['auth'])).toMatchObject({ command: 'auth', positionals: [], logout: false });
    expect(parseCliArguments(['auth', 'github'])).toMatchObject({ command: 'auth', positionals: ['github'] });
    expect(parseCliArguments(['auth', '--logout', 'github'])).toMatchObject({ logout: true, positionals: ['github'] });
    expect(() => parseCliArguments(['auth', '--logout'])).toThrow('--logout needs the server to log out of');
    expect(() => parseCliArguments(['auth', 'a', 'b'])).toThrow('auth takes at most one server id');
    expect(() => parseCliArguments(['list', '--logout'])).toThrow(/--logout/);
  });

  it('reads secret: set NAME, list, delete NAME; never a value on the command line', () => {
    expect(parseCliArguments(['secret', 'set', 'GH_TOKEN'])).toMatchObject({
      command: 'secret',
      positionals: ['set', 'GH_TOKEN'],
    });
    expect(parseCliArguments(['secret', 'list', '--json'])).toMatchObject({ positionals: ['list'], json: true });
    expect(() => parseCliArguments(['secret'])).toThrow('secret needs set NAME, list or delete NAME');
    expect(() => parseCliArguments(['secret', 'sett', 'X'])).toThrow('did you mean "set"?');
    expect(() => parseCliArguments(['secret', 'set'])).toThrow('secret set needs a NAME');
    expect(() => parseCliArguments(['secret', 'set', 'X', 'value'])).toThrow('never from the command line');
    expect(() => parseCliArguments(['secret', 'delete', 'my-token'])).toThrow('cannot be a secret name');
    expect(() => parseCliArguments(['secret', 'list', 'X'])).toThrow('secret list takes no name');
  });

  it('reads ui: --port, --no-open and --no-watch', () => {
    expect(parseCliArguments(['ui'])).toMatchObject({ command: 'ui', open: true, watch: true });
    expect(parseCliArguments(['ui', '--port', '8123', '--no-open', '--no-watch'])).toMatchObject({
      command: 'ui',
      port: 8123,
      open: false,
      watch: false,
    });
    expect(() => parseCliArguments(['ui', '--port', 'high'])).toThrow('--port must be a whole number from 0 to 65535');
    expect(() => parseCliArguments(['list', '--no-open'])).toThrow('--no-open is an option of ui, not of list');
  });

  it('approve takes one server or server:tool, and --yes only there', () => {
    expect(parseCliArguments(['approve', 'github:create_issue', '--yes'])).toMatchObject({
      command: 'approve',
      positionals: ['github:create_issue'],
      yes: true,
    });
    expect(() => parseCliArguments(['approve'])).toThrow(/approve takes one server/);
    expect(() => parseCliArguments(['list', '--yes'])).toThrow(/--yes is an option of approve/);
  });

  it('reads search --fresh, an option of search only', () => {
    expect(parseCliArguments(['search', 'echo', '--fresh'])).toMatchObject({ command: 'search', fresh: true });
    expect(parseCliArguments(['search', 'echo']).fresh).toBe(false);
    expect(() => parseCliArguments(['list', '--fresh'])).toThrow(/--fresh is an option of search/);
  });

  it('reads commands, flags and positionals', () => {
    const none = {
      write: false,
      force: false,
      logout: false,
      replaceIn: [],
      watch: true,
      open: true,
      yes: false,
      fresh: false,
    };
    expect(parseCliArguments([])).toEqual({ command: 'serve', positionals: [], json: false, ...none });
    expect(
      parseCliArguments([
        'search',
        'read',
        'a',
        'file',
        '--limit',
        '5',
        '--json',
        '--config=c.json',
        '--mode',
        'proxy',
      ]),
    ).toEqual({
      command: 'search',
      positionals: ['read', 'a', 'file'],
      json: true,
      limit: 5,
      config: 'c.json',
      mode: 'proxy',
      ...none,
    });
    expect(parseCliArguments(['list', '--server', 'github', '--project', 'web', '--log-level', 'debug'])).toMatchObject(
      { command: 'list', server: 'github', project: 'web', logLevel: 'debug' },
    );
    expect(parseCliArguments(['search', 'x', '--strategy', 'hybrid'])).toMatchObject({ strategy: 'hybrid' });
    expect(
      parseCliArguments(['import', 'out.json', '--write', '--force', '--replace-in', 'cursor', '--replace-in=vscode']),
    ).toMatchObject({
      command: 'init',
      positionals: ['out.json'],
      write: true,
      force: true,
      replaceIn: ['cursor', 'vscode'],
    });
    expect(parseCliArguments(['init', '--home', '/h', '--platform', 'win32'])).toMatchObject({
      command: 'init',
      home: '/h',
      platform: 'win32',
      write: false,
      replaceIn: [],
    });
    expect(parseCliArguments(['--no-watch'])).toMatchObject({ command: 'serve', watch: false });
    expect(parseCliArguments(['serve', '--no-watch', '--config', 'c.json'])).toMatchObject({ watch: false });
    expect(parseCliArguments(['-v']).command).toBe('version');
    expect(parseCliArguments(['doctor', '--help']).command).toBe('help');
  });

  it('suggests the flag or command that was meant', () => {
    expect(usageErrorOf(['--confg', 'x']).message).toBe('unknown option --confg; did you mean --config?');
    expect(usageErrorOf(['list', '--sever', 'x']).message).toBe('unknown option --sever; did you mean --server?');
    expect(usageErrorOf(['--log_level', 'debug']).message).toBe(
      'unknown option --log_level; did you mean --log-level?',
    );
    expect(usageErrorOf(['--verbose']).message).toBe('unknown option --verbose');
    expect(usageErrorOf(['serach', 'x']).message).toBe('unknown command "serach"; did you mean "search"?');
    expect(usageErrorOf(['doctr']).message).toBe('unknown command "doctr"; did you mean "doctor"?');
    expect(usageErrorOf(['frobnicate']).message).toBe('unknown command "frobnicate"');
    expect(usageErrorOf(['-x']).message).toBe('unknown option -x');
  });

  it('says in one line what is wrong with a value', () => {
    expect(usageErrorOf(['--mode', 'full']).message).toBe('--mode must be meta or proxy, not "full"');
    expect(usageErrorOf(['search', 'x', '--limit', '51']).message).toBe('--limit must be a whole number from 1 to 50');
    expect(usageErrorOf(['--log-level', 'loud']).message).toMatch(/^--log-level must be one of debug, info/);
    expect(usageErrorOf(['--json=yes']).message).toBe('--json does not take an argument');
    expect(usageErrorOf(['--config']).message).toBe('-c, --config <value> argument missing');
    expect(usageErrorOf(['search']).message).toMatch(/^search needs a query/);
    expect(usageErrorOf(['call']).message).toMatch(/^call needs a tool key/);
    expect(usageErrorOf(['call', 'a:b', '{}', 'extra']).message).toMatch(/^call takes a tool key and one JSON object/);
    expect(usageErrorOf(['search', 'x', '--strategy', 'hybird']).message).toBe(
      '--strategy must be one of bm25, hybrid, llm, cloud, not "hybird"; did you mean "hybrid"?',
    );
    expect(usageErrorOf(['init', '--write', '--replace-in', 'cursr']).message).toBe(
      '--replace-in takes a client: claude-desktop, claude-code, cursor, vscode, windsurf, all, not "cursr"; did you mean "cursor"?',
    );
    expect(usageErrorOf(['init', '--replace-in', 'cursor']).message).toMatch(/^--replace-in needs --write/);
    expect(usageErrorOf(['init', 'a.json', 'b.json']).message).toMatch(/^init takes at most one path/);
    expect(usageErrorOf(['init', '--platform', 'macos']).message).toBe(
      '--platform must be linux, darwin or win32, not "macos"',
    );
    // An option of another command is not silently ignored.
    expect(usageErrorOf(['list', '--strategy', 'bm25']).message).toBe('--strategy is an option of search, not of list');
    expect(usageErrorOf(['search', 'x', '--write']).message).toBe('--write is an option of init, not of search');
    expect(usageErrorOf(['doctor', '--no-watch']).message).toBe(
      '--no-watch is an option of serve and ui, not of doctor',
    );
    expect(usageErrorOf(['--no-watch=1']).message).toBe('--no-watch does not take an argument');
    expect(usageErrorOf(['--watch']).message).toBe('unknown option --watch; did you mean --no-watch?');
    for (const argv of [['--confg'], ['--mode', 'x'], ['call']]) expect(usageErrorOf(argv).message).not.toContain('\n');
  });

  it('leaves what follows -- alone', () => {
    expect(parseCliArguments(['search', '--', '--not-a-flag']).positionals).toEqual(['--not-a-flag']);
  });
});

describe('closestName', () => {
  it('finds a typo, a different case or separator, or a prefix, and nothing for unrelated words', () => {
    expect(closestName('githb', ['github', 'gitlab', 'memory'])).toBe('github');
    expect(closestName('GitHub', ['github'])).toBe('github');
    expect(closestName('file_system', ['filesystem'])).toBe('filesystem');
    expect(closestName('mem', ['memory', 'github'])).toBe('memory');
    expect(closestName('kubernetes', ['github', 'memory'])).toBeUndefined();
    expect(closestName('', ['github'])).toBeUndefined();
  });
});
