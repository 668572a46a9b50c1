import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prestartCallServer } from './prestart-call-server.js';

/**
 * Which `call`s start their server before the runtime loads: only an entry whose launch the raw file says plainly.
 * Anything the config's rules would read differently starts nothing here (the runtime then starts it as usual).
 */
describe('prestartCallServer', () => {
  let directory: string;
  const plain = fixtureServer('stdio-fixture-server.mjs');

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-prestart-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function configWith(name: string, content: unknown): Promise<string> {
    const path = join(directory, `${name}.json`);
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  /** The servers it started for `argv` (each ended at once: only whether one started matters here). */
  function startedFor(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = directory): string[] {
    const started = prestartCallServer(argv, env, cwd);
    for (const server of started) {
      expect(server.pid).toBeTypeOf('number');
      server.discard();
    }
    return started.map((server) => server.serverId);
  }

  it('starts the server of a plain entry, wherever the config is named', async () => {
    const path = await configWith('plain', {
      mcpServers: { fixture: { ...plain, env: { FIXTURE: 'yes' }, description: 'd', tags: ['t'], enabled: true } },
    });
    expect(startedFor(['call', 'fixture:echo', '{}', '--config', path])).toEqual(['fixture']);
    expect(startedFor(['--config', path, 'call', 'fixture:echo'])).toEqual(['fixture']);
    expect(startedFor(['-c', path, 'call', 'fixture:echo', '--json'])).toEqual(['fixture']);
    expect(startedFor(['call', 'fixture:echo'], { SEARCH_MCP_CONFIG: path })).toEqual(['fixture']);
    const inDirectory = await configWith('cwd', { mcpServers: { fixture: { ...plain, cwd: directory } } });
    expect(startedFor(['call', 'fixture:echo', '--config', inDirectory])).toEqual(['fixture']);
    // ./config/mcp-servers.json of the working directory.
    await mkdir(join(directory, 'config'), { recursive: true });
    await writeFile(join(directory, 'config', 'mcp-servers.json'), JSON.stringify({ mcpServers: { fixture: plain } }));
    expect(startedFor(['call', 'fixture:echo'], {}, directory)).toEqual(['fixture']);
  });

  it('starts nothing for another command, a help request or a key without a server', async () => {
    const path = await configWith('commands', { mcpServers: { fixture: plain } });
    // The options a prestart allows, each with a valid value, still start it.
    expect(
      startedFor(['call', 'fixture:echo', '{"a":1}', '--json', '--mode', 'proxy', '--log-level', 'debug', '-c', path]),
    ).toEqual(['fixture']);
    for (const argv of [
      // Options that may hide the server, mean nothing to `call`, are misspelt, lack a value or have a wrong one.
      ['call', 'fixture:echo', '--config', path, '--project', 'team-a'],
      ['call', 'fixture:echo', '--config', path, '--limit', '3'],
      ['call', 'fixture:echo', '--config', path, '--confg', path],
      ['call', 'fixture:echo', '--config'],
      ['call', 'fixture:echo', '--config', path, '--mode', 'both'],
      ['call', 'fixture:echo', '--config', path, '--log-level', 'loud'],
      // Arguments that are not one JSON object, or too many of them.
      ['call', 'fixture:echo', 'not json', '--config', path],
      ['call', 'fixture:echo', '[1]', '--config', path],
      ['call', 'fixture:echo', '{}', 'extra', '--config', path],
      ['search', 'fixture:echo', '--config', path],
      ['serve', '--config', path],
      ['call', 'fixture:echo', '--help', '--config', path],
      ['call', 'fixture', '--config', path],
      ['call', ':echo', '--config', path],
      ['call', '--config', path],
      ['call', 'other:echo', '--config', path],
    ]) {
      expect(startedFor(argv), argv.join(' ')).toEqual([]);
    }
  });

  it('starts nothing for an entry the config rules would read differently', async () => {
    const entries: Record<string, Record<string, unknown>> = {
      variable: { ...plain, env: { TOKEN: '${TOKEN}' } },
      variableArgument: { ...plain, args: [...plain.args, '${HOME}/x'] },
      sandbox: { ...plain, sandbox: { kind: 'bubblewrap' } },
      projects: { ...plain, projects: ['team-a'] },
      disabled: { ...plain, enabled: false },
      clineDisabled: { ...plain, disabled: true },
      pinned: { ...plain, protocol: '2025' },
      relativeCwd: { ...plain, cwd: '.' },
      remote: { url: 'http://127.0.0.1:1/mcp' },
      numberInEnv: { ...plain, env: { PORT: 8080 } },
      itself: { command: 'search-mcp', args: ['serve'] },
      // Keys that change nothing about the launch, but typed wrong: the config refuses the entry.
      textTimeout: { ...plain, timeoutMs: '30s' },
      textTags: { ...plain, tags: 'demo' },
      listPermissions: { ...plain, toolPermissions: [] },
      toolOverrides: { ...plain, tools: { echo: { description: 'x' } } },
      unknownKey: { ...plain, autoApprove: ['echo'] },
      unnormalizedCwd: { ...plain, cwd: `${directory}/` },
    };
    for (const [name, entry] of Object.entries(entries)) {
      const path = await configWith(name, { mcpServers: { fixture: entry } });
      expect(startedFor(['call', 'fixture:echo', '--config', path]), name).toEqual([]);
    }
  });

  it('starts nothing when the file is not plain JSON of mcpServers under plain ids', async () => {
    const files: Record<string, unknown> = {
      comments: `{ // a comment\n "mcpServers": { "fixture": ${JSON.stringify(plain)} } }`,
      vsCode: { servers: { other: plain }, mcpServers: { fixture: plain } },
      // Claude Code's per-directory entries may replace it (and Search MCP's own projects may hide it).
      projects: { mcpServers: { fixture: plain }, projects: { [directory]: { mcpServers: { fixture: plain } } } },
      // Two keys that become one id: the config refuses both.
      sameId: { mcpServers: { fixture: plain, Fixture: plain } },
      notAnId: { mcpServers: { Fixture: plain } },
      missingFile: undefined,
    };
    for (const [name, content] of Object.entries(files)) {
      const path = content === undefined ? join(directory, 'absent.json') : await configWith(name, content);
      const key = name === 'notAnId' ? 'Fixture:echo' : 'fixture:echo';
      expect(startedFor(['call', key, '--config', path]), name).toEqual([]);
    }
  });
});
