import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../node/load-config.js';
import { collectConfigSecrets } from '../secrets/config-secrets.js';
import { createSecretRedactor } from '../secrets/secret-redactor.js';
import { expandVariables, type SecretResolver } from './env-expansion.js';
import { parseConfig } from './parse-config.js';

/** A resolver over a fixed set of secrets, like the OS keyring's (docs/trust.md, "Secrets in the OS keyring"). */
function resolverOf(secrets: Record<string, string>, asked: string[] = []): SecretResolver {
  return (name) => {
    asked.push(name);
    const value = secrets[name];
    return value === undefined ? { problem: `the OS keyring has no secret ${name}` } : { value };
  };
}

describe('${keyring:NAME} in expandVariables', () => {
  it('substitutes the secret and reports it for the redactor', () => {
    const expansion = expandVariables(
      'Bearer ${keyring:API_TOKEN} at ${HOST}',
      { HOST: 'h' },
      resolverOf({ API_TOKEN: 't0ken' }),
    );
    expect(expansion).toEqual({ value: 'Bearer t0ken at h', missing: [], missingSecrets: [], secretValues: ['t0ken'] });
  });

  it('reports a secret the resolver cannot give once, with its reason', () => {
    const expansion = expandVariables('${keyring:GONE}-${keyring:GONE}', {}, resolverOf({}));
    expect(expansion.value).toBe('-');
    expect(expansion.missingSecrets).toEqual([{ name: 'GONE', problem: 'the OS keyring has no secret GONE' }]);
  });

  it('without a resolver says the keyring is not available here', () => {
    expect(expandVariables('${keyring:X}', {}).missingSecrets[0]?.problem).toMatch(/not available here/);
  });

  it('is not an environment variable: ${keyring:X} never reads $X, and ${keyring:} or a default is no reference', () => {
    const asked: string[] = [];
    expect(expandVariables('${keyring:X}', { X: 'from-env' }, resolverOf({ X: 'from-keyring' }, asked)).value).toBe(
      'from-keyring',
    );
    expect(expandVariables('${keyring:} ${keyring:X:-d}', {}, resolverOf({}, asked)).value).toBe(
      '${keyring:} ${keyring:X:-d}',
    );
    expect(asked).toEqual(['X']);
  });
});

describe('${keyring:NAME} in parseConfig and loadConfig', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-keyring-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('resolves in a config file and every substituted value joins the redactor, wherever it went', async () => {
    const file = join(directory, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          // An argument without a credential-like name: masked only because it came from the keyring.
          local: { command: 'node', args: ['server.js', '${keyring:PLAIN_ARG}'], env: { TOKEN: '${keyring:GH}' } },
          remote: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${keyring:GH}' } },
        },
      }),
    );
    const config = await loadConfig(file, {
      env: {},
      secrets: resolverOf({ GH: 'ghp_secret', PLAIN_ARG: 'zebra-42' }),
    });
    const local = config.mcpServers['local'];
    expect(local?.configError).toBeUndefined();
    expect(local).toMatchObject({ args: ['server.js', 'zebra-42'], env: { TOKEN: 'ghp_secret' } });
    expect(config.mcpServers['remote']).toMatchObject({ headers: { Authorization: 'Bearer ghp_secret' } });
    const redactor = createSecretRedactor(collectConfigSecrets(config));
    expect(redactor.redact('started with zebra-42 and ghp_secret')).toBe('started with *** and ***');
    // The values are beside the config, not in it: printing the config shows them only where they were written.
    expect(JSON.stringify(config).match(/zebra-42/g)).toHaveLength(1);
  });

  it('a missing secret is the server config error, naming both fallbacks; other servers are untouched', () => {
    const config = parseConfig(
      {
        mcpServers: {
          broken: { command: 'node', env: { TOKEN: '${keyring:GITHUB_TOKEN}' } },
          fine: { command: 'node' },
        },
      },
      { env: {}, secrets: resolverOf({}) },
    );
    const error = config.mcpServers['broken']?.configError ?? '';
    expect(error).toContain('keyring secret GITHUB_TOKEN: the OS keyring has no secret GITHUB_TOKEN');
    expect(error).toContain('`search-mcp secret set GITHUB_TOKEN`');
    expect(error).toContain('${GITHUB_TOKEN}');
    expect(config.mcpServers['fine']?.configError).toBeUndefined();
  });
});
