import { mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffServerConfigs } from '../config/diff-server-configs.js';
import type { ResolvedConfig } from '../config/resolved-config.js';
import { ConfigError } from '../errors/config-error.js';
import { type ConfigFileWatcher, loadConfig, type WatchConfigFileOptions, watchConfigFile } from '../node.js';

type WatchEvent =
  | { kind: 'change'; config: ResolvedConfig }
  | { kind: 'error'; error: Error; lastGood: ResolvedConfig | undefined }
  | { kind: 'unchanged' };

/** Records a watcher's callbacks; `next()` waits (up to a deadline) for the next one, in order. */
class Recorder {
  readonly events: WatchEvent[] = [];
  private consumed = 0;
  private wake: (() => void) | undefined;

  readonly callbacks: Pick<WatchConfigFileOptions, 'onChange' | 'onError' | 'onUnchanged'> = {
    onChange: (config) => this.push({ kind: 'change', config }),
    onError: (error, lastGood) => this.push({ kind: 'error', error, lastGood }),
    onUnchanged: () => this.push({ kind: 'unchanged' }),
  };

  private push(event: WatchEvent): void {
    this.events.push(event);
    this.wake?.();
  }

  async next(deadlineMs = 5000): Promise<WatchEvent> {
    const deadline = Date.now() + deadlineMs;
    while (this.events.length <= this.consumed) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no watcher callback within ${deadlineMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    const event = this.events[this.consumed];
    this.consumed += 1;
    if (event === undefined) throw new Error('unreachable');
    return event;
  }

  async nextChange(): Promise<ResolvedConfig> {
    const event = await this.next();
    if (event.kind !== 'change') throw new Error(`expected a change, got ${describeEvent(event)}`);
    return event.config;
  }

  async nextError(): Promise<{ error: Error; lastGood: ResolvedConfig | undefined }> {
    const event = await this.next();
    if (event.kind !== 'error') throw new Error(`expected an error, got ${describeEvent(event)}`);
    return event;
  }

  async nextUnchanged(): Promise<void> {
    const event = await this.next();
    if (event.kind !== 'unchanged') throw new Error(`expected nothing new, got ${describeEvent(event)}`);
  }
}

function describeEvent(event: WatchEvent): string {
  return event.kind === 'error' ? `error: ${event.error.message}` : event.kind;
}

let directory: string;
let file: string;
const watchers: ConfigFileWatcher[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-watch-'));
  file = join(directory, 'config.json');
});

afterEach(async () => {
  for (const watcher of watchers.splice(0)) watcher.close();
  await rm(directory, { recursive: true, force: true });
});

const servers = (...names: string[]) =>
  JSON.stringify({
    mcpServers: Object.fromEntries(names.map((name) => [name, { command: 'npx', args: ['-y', name] }])),
  });

async function start(options: Partial<WatchConfigFileOptions> = {}) {
  const recorder = new Recorder();
  const watcher = watchConfigFile(file, { ...recorder.callbacks, environment: {}, ...options });
  watchers.push(watcher);
  await watcher.ready;
  return { recorder, watcher };
}

describe('watchConfigFile', () => {
  it('hands over the re-read config when the file changes', async () => {
    await writeFile(file, servers('a'));
    const initialConfig = await loadConfig(file, { env: {} });
    const { recorder } = await start({ initialConfig });

    await writeFile(file, servers('a', 'b'));
    const next = await recorder.nextChange();
    expect(Object.keys(next.mcpServers)).toEqual(['a', 'b']);
    expect(diffServerConfigs(initialConfig, next)).toEqual({
      added: ['b'],
      removed: [],
      changed: [],
      unchanged: ['a'],
    });

    await writeFile(file, servers('b'));
    expect(diffServerConfigs(next, await recorder.nextChange())).toMatchObject({ removed: ['a'], unchanged: ['b'] });
  });

  it('keeps the last good config on a broken edit, says why, and goes on after the fix', async () => {
    await writeFile(file, servers('a'));
    const initialConfig = await loadConfig(file, { env: {} });
    const { recorder } = await start({ initialConfig });

    await writeFile(file, '{ "mcpServers": { "a": { "env": { "TOKEN": "ghp_secret_value" } } ');
    const broken = await recorder.nextError();
    expect(ConfigError.isInstance(broken.error)).toBe(true);
    expect(broken.error.message).toContain(file);
    expect(broken.error.message).toMatch(/line 1, column \d+/);
    expect(broken.error.message).not.toContain('ghp_secret_value');
    expect(broken.lastGood).toBe(initialConfig);

    await writeFile(file, '{ "mcpServers": { "a": { "command": "x" } }, "exposure": { "mode": "all" } }');
    const invalid = await recorder.nextError();
    expect((invalid.error as ConfigError).issues).toEqual([
      { path: 'exposure.mode', message: 'expected one of "meta", "proxy"' },
    ]);
    expect(invalid.lastGood).toBe(initialConfig);

    // Back to what is running: nothing to do.
    await writeFile(file, servers('a'));
    await recorder.nextUnchanged();

    await writeFile(file, servers('a', 'c'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['a', 'c']);
  });

  it('does not fire for the same content or an edit that changes nothing (a comment)', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start({ initialConfig: await loadConfig(file, { env: {} }) });

    await writeFile(file, servers('a'));
    await recorder.nextUnchanged();
    await writeFile(file, `// my servers\n${servers('a')}\n`);
    await recorder.nextUnchanged();
    await writeFile(file, servers('z'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['z']);
    expect(recorder.events.map((event) => event.kind)).toEqual(['unchanged', 'unchanged', 'change']);
  });

  it('follows an editor that saves by renaming a new file over the old one, again and again', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start();
    for (const name of ['b', 'c', 'd']) {
      const temporary = join(directory, `.config.json.${name}.swp`);
      await writeFile(temporary, servers(name));
      await rename(temporary, file);
      expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual([name]);
    }
  });

  it('reports a deleted file, keeps the config, and picks the file up when it is back', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start();
    await unlink(file);
    const gone = await recorder.nextError();
    expect(gone.error.message).toBe(`Config file not found: ${file}`);
    expect(Object.keys(gone.lastGood?.mcpServers ?? {})).toEqual(['a']);

    await writeFile(file, servers('a', 'b'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['a', 'b']);
  });

  it('without initialConfig, reads the file first without firing, then reports changes', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start();
    expect(recorder.events).toEqual([]);
    await writeFile(file, servers('b'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['b']);
  });

  it('reports a file broken from the start, with nothing to keep, and takes the first good version', async () => {
    await writeFile(file, '{ "mcpServers": ');
    const { recorder } = await start();
    const broken = await recorder.nextError();
    expect(broken.lastGood).toBeUndefined();
    await writeFile(file, servers('a'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['a']);
  });

  it('expands variables from the given environment and resolves paths against the file', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start({ environment: { TOOL: 'run-tool' } });
    await writeFile(file, JSON.stringify({ mcpServers: { a: { command: '${TOOL}', cwd: 'work' } } }));
    expect((await recorder.nextChange()).mcpServers['a']).toMatchObject({
      command: 'run-tool',
      cwd: join(directory, 'work'),
    });
  });

  it('follows a config reached through a symbolic link when the target is edited', async () => {
    const dotfiles = join(directory, 'dotfiles');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'search-mcp.json');
    await writeFile(target, servers('a'));
    await symlink(target, file);
    const { recorder } = await start();
    await writeFile(target, servers('a', 'linked'));
    expect(Object.keys((await recorder.nextChange()).mcpServers)).toEqual(['a', 'linked']);
  });

  it('ignores other files of the directory', async () => {
    await writeFile(file, servers('a'));
    const { recorder } = await start({ debounceMs: 0 });
    // A second watcher on the neighbour proves its event was delivered; by then ours would have answered.
    const neighbour = join(directory, 'audit.jsonl');
    await writeFile(neighbour, '');
    const witness = new Recorder();
    const witnessWatcher = watchConfigFile(neighbour, { ...witness.callbacks, debounceMs: 200 });
    watchers.push(witnessWatcher);
    await witnessWatcher.ready;
    await writeFile(neighbour, '{}');
    await witness.next();
    expect(recorder.events).toEqual([]);
  });

  it('check() reads at once, as on SIGHUP', async () => {
    await writeFile(file, servers('a'));
    const { recorder, watcher } = await start({ debounceMs: 60_000 });
    await writeFile(file, servers('a', 'b'));
    await watcher.check();
    expect(recorder.events.map((event) => event.kind)).toEqual(['change']);
    await watcher.check();
    expect(recorder.events.map((event) => event.kind)).toEqual(['change', 'unchanged']);
  });

  it('calls nothing after close()', async () => {
    await writeFile(file, servers('a'));
    const { recorder, watcher } = await start({ debounceMs: 20 });
    const witness = new Recorder();
    const witnessWatcher = watchConfigFile(file, { ...witness.callbacks, environment: {}, debounceMs: 200 });
    watchers.push(witnessWatcher);
    await witnessWatcher.ready;

    watcher.close();
    await writeFile(file, servers('b'));
    await witness.nextChange();
    expect(recorder.events).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(servers('b'));
  });
});
