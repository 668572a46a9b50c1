import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `search-mcp secret` and `${keyring:NAME}` against a real keyring (docs/trust.md, "Secrets in the OS keyring"):
 * the Linux kernel keyring. Every run of the built CLI joins one named session keyring with `keyctl session`
 * (Debian's keyutils; `.ci/run` installs it), which is what a login session gives a headless user, and which
 * works in a container whose inherited session keyring refuses access. `SEARCH_MCP_KEYRING=keyutils` keeps a
 * desktop's Secret Service out of it. Without any keyring: a Secret Service required on a D-Bus that is not there.
 */
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined && child.stdin) {
      // A command that fails before reading stdin closes it: its exit code and stderr tell the test what happened.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}

describe('search-mcp secret and ${keyring:NAME} (kernel keyring)', () => {
  const session = `search-mcp-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const secretValue = `kr-${randomBytes(12).toString('hex')}`;
  // The kernel keyring the secrets land in is the user's, shared by every session: a name of this run's own, so that
  // a suite running beside this one (another clone's) neither finds nor deletes this run's secret.
  const name = `TEST_TOKEN_${randomBytes(4).toString('hex').toUpperCase()}`;
  let directory: string;
  let config: string;
  let env: NodeJS.ProcessEnv;

  /** The built CLI inside the test's session keyring. */
  const inKeyring = (args: string[], input?: string): Promise<Run> =>
    run('keyctl', ['session', session, process.execPath, cli, ...args], env, input);

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-secret-'));
    env = { ...process.env, SEARCH_MCP_STATE_DIR: join(directory, 'state'), SEARCH_MCP_KEYRING: 'keyutils' };
    // A server that prints its argument and fails, like one that logs its token when it cannot start.
    const leaky = join(directory, 'leaky-server.mjs');
    await writeFile(leaky, 'console.error(`got ${process.argv[2]}`);\nprocess.exit(1);\n');
    config = join(directory, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { leaky: { command: process.execPath, args: [leaky, `\${keyring:${name}}`] } } }),
    );
    const probe = await run('keyctl', ['--version'], env).catch((error: Error) => ({
      code: -1,
      stderr: error.message,
    }));
    if (probe.code !== 0) throw new Error(`keyctl is needed (apt-get install keyutils): ${probe.stderr}`);
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('set stores from stdin, list shows the name only, the config resolves it and doctor masks it', async () => {
    const set = await inKeyring(['secret', 'set', name], `${secretValue}\n`);
    // keyctl's own line is the only thing on stderr.
    expect(set.stderr.replace(/^Joined session keyring: \d+\n/, '')).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(`\${keyring:${name}}`);
    expect(set.stdout).not.toContain(secretValue);

    const list = await inKeyring(['secret', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([{ name, inKeyring: true }]);
    const index = await readFile(join(directory, 'state', 'keyring-secrets.json'), 'utf8');
    expect(index).not.toContain(secretValue);

    // The server got the value (it printed something where the secret was) and every output shows *** instead.
    const doctor = await inKeyring(['doctor', '--json', '--config', config, '--log-level', 'debug']);
    const output = doctor.stdout + doctor.stderr;
    expect(output).not.toContain(secretValue);
    expect(output).toContain('got ***');
    expect(output).not.toContain(`keyring secret ${name}`);
  });

  it('delete removes it: the config error names the fallbacks', async () => {
    const deleted = await inKeyring(['secret', 'delete', name]);
    expect(deleted.code).toBe(0);
    expect((await inKeyring(['secret', 'list', '--json'])).stdout.trim()).toBe('[]');
    const again = await inKeyring(['secret', 'delete', name]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`the OS keyring has no secret ${name}`);

    const doctor = await inKeyring(['doctor', '--config', config]);
    const output = doctor.stdout.replace(/\s+/g, ' ');
    expect(output).toContain(`keyring secret ${name}: the OS keyring has no secret ${name}`);
    expect(output).toContain(`search-mcp secret set ${name}`);
  });

  it('without a keyring: set fails saying so and naming the environment variable; the config error too', async () => {
    const noKeyring = {
      ...env,
      SEARCH_MCP_KEYRING: 'secret-service',
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(directory, 'no-bus')}`,
    };
    const set = await run(process.execPath, [cli, 'secret', 'set', name], noKeyring, 'value\n');
    expect(set.code).toBe(1);
    expect(set.stderr).toContain('search-mcp: the OS keyring is not available');
    expect(set.stderr).toContain(`write \${${name}} in the config`);

    const doctor = await run(process.execPath, [cli, 'doctor', '--config', config], noKeyring);
    const output = doctor.stdout.replace(/\s+/g, ' ');
    expect(output).toContain(`keyring secret ${name}: the OS keyring is not available`);
    expect(output).toContain(`\${${name}}`);
  });

  it('never takes the value from the command line', async () => {
    const misuse = await run(process.execPath, [cli, 'secret', 'set', name, 'the-value'], env);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('never from the command line');
  });
});
