import { describe, expect, it } from 'vitest';
import { createJsonLineLogger } from '../logging/logger.js';
import { parseConfig } from '../config/parse-config.js';
import { collectConfigSecrets } from './config-secrets.js';
import { createSecretRedactor } from './secret-redactor.js';

/** One canary per secret-bearing field; each is unique so a leak names its field. */
const canary = {
  envLiteral: 'CANARY-env-literal-0001',
  envVariable: 'CANARY-env-variable-0002',
  envUrlPassword: 'CANARY-env-url-password-0003',
  argToken: 'CANARY-arg-token-0004',
  argNext: 'CANARY-arg-next-0005',
  argDocker: 'CANARY-arg-docker-0006',
  header: 'CANARY-header-0007',
  bearer: 'CANARY-bearer-0008',
  basicPassword: 'CANARY-basic-password-0009',
  urlUser: 'CANARY-url-user-0010',
  urlPassword: 'CANARY-url-p@ss/0011',
  urlQuery: 'CANARY-url-query-0012',
  urlPath: 'CANARYurlpath0013abcdefghij',
  authToken: 'CANARY-auth-token-0014',
  cloudKey: 'CANARY-cloud-key-0015',
  cloudUrlKey: 'CANARY-cloud-url-key-0016',
  disabledEnv: 'CANARY-disabled-env-0017',
  llmKey: 'CANARY-llm-key-0018',
  llmUrlPassword: 'CANARY-llm-url-password-0019',
  brokenServerEnv: 'CANARY-broken-server-env-0020',
  oauthClientSecret: 'CANARY-oauth-client-secret-0021',
  oauthPrivateKey: 'CANARY-oauth-private-key-0022',
  oauthAssertion: 'CANARY-oauth-assertion-0023',
  idpClientSecret: 'CANARY-idp-client-secret-0024',
  idpIdToken: 'CANARY-idp-id-token-0025',
};

function canaryConfig() {
  return parseConfig(
    {
      mcpServers: {
        local: {
          command: 'npx',
          args: [
            '-y',
            '@modelcontextprotocol/server-github',
            `--token=${canary.argToken}`,
            '--api-key',
            canary.argNext,
            '-e',
            `GITHUB_TOKEN=${canary.argDocker}`,
          ],
          env: {
            LITERAL: canary.envLiteral,
            FROM_VARIABLE: '${SECRET_FROM_ENV}',
            DATABASE_URL: `postgres://app:${canary.envUrlPassword}@db/app`,
          },
        },
        remote: {
          url: `https://${canary.urlUser}:${encodeURIComponent(canary.urlPassword)}@host/mcp/${canary.urlPath}/sse?api_key=${canary.urlQuery}&page=2`,
          headers: {
            'X-Api-Key': canary.header,
            Authorization: `Bearer ${canary.bearer}`,
          },
        },
        basic: {
          url: 'https://host/mcp',
          headers: { Authorization: `Basic ${btoa(`user:${canary.basicPassword}`)}` },
        },
        machine: {
          url: 'https://host/mcp',
          oauth: {
            grant: 'client_credentials',
            clientId: 'machine',
            clientSecret: canary.oauthClientSecret,
            privateKey: canary.oauthPrivateKey,
            assertion: canary.oauthAssertion,
          },
        },
        enterprise: {
          url: 'https://host/mcp',
          oauth: {
            grant: 'enterprise-managed',
            clientId: 'search-mcp',
            identityProvider: {
              issuer: 'https://idp.example',
              clientId: 'idp-client',
              clientSecret: canary.idpClientSecret,
              idToken: canary.idpIdToken,
            },
          },
        },
        off: { enabled: false, command: 'x', env: { KEY: canary.disabledEnv } },
        // A server with a configError still holds its secrets.
        broken: { command: 'x', timeoutMs: 'soon', env: { KEY: canary.brokenServerEnv } },
      },
      search: {
        strategy: 'cloud',
        cloud: { url: `https://search.example/?token=${canary.cloudUrlKey}`, apiKey: '${CLOUD_KEY}' },
        llm: { apiKey: '${LLM_KEY}', baseUrl: `https://proxy:${canary.llmUrlPassword}@llm.example/v1` },
      },
      auth: { tokens: [{ id: 'ci', token: canary.authToken }] },
    },
    { env: { SECRET_FROM_ENV: canary.envVariable, CLOUD_KEY: canary.cloudKey, LLM_KEY: canary.llmKey } },
  );
}

describe('collectConfigSecrets', () => {
  it('collects a canary from every secret-bearing field', () => {
    const config = canaryConfig();
    expect(config.mcpServers['broken']?.configError).toBe('mcpServers.broken.timeoutMs: expected a positive integer');
    const secrets = collectConfigSecrets(config);
    for (const [field, value] of Object.entries(canary)) {
      expect(secrets, field).toContain(value);
    }
  });

  it('masks every canary wherever a backend echoes it, in any spelling', () => {
    const redactor = createSecretRedactor(collectConfigSecrets(canaryConfig()));
    const echoes = Object.values(canary).flatMap((value) => [
      `stderr: started with ${value}`,
      JSON.stringify({ error: { message: `bad credentials ${value}` } }),
      `GET /?q=${encodeURIComponent(value)}`,
    ]);
    const output = redactor.redact(echoes.join('\n'));
    expect(output).not.toContain('CANARY');
    expect(output).not.toContain(encodeURIComponent(canary.urlPassword));
  });

  it('leaves ordinary arguments, commands and ids readable', () => {
    const secrets = collectConfigSecrets(canaryConfig());
    for (const readable of ['npx', '-y', '@modelcontextprotocol/server-github', '--api-key', 'local', 'ci', 'app']) {
      expect(secrets).not.toContain(readable);
    }
  });

  it('skips values too short to be secrets and words that structure every log line', () => {
    const config = parseConfig(
      {
        mcpServers: {
          s: { command: 'x', env: { A: '1', B: 'abc', C: 'true', D: 'info', E: 'null', F: 'abcd', G: '/usr/bin' } },
        },
      },
      { env: {} },
    );
    expect(collectConfigSecrets(config).sort()).toEqual(['/usr/bin', 'abcd']);
  });

  it('collects every credential-named field of the search section, whatever its name or depth', () => {
    const config = parseConfig({ mcpServers: {}, search: { cloud: { url: 'https://s', apiKey: 'key-1234' } } });
    // A future section (e.g. search.llm.apiKey) is found without a change here.
    const extended = { ...config, search: { ...config.search, future: { nested: { apiKey: 'key-5678' } } } };
    expect(collectConfigSecrets(extended)).toEqual(['key-1234', 'key-5678']);
  });
});

describe('createJsonLineLogger with a redactor', () => {
  it('masks the message and every field at every level, including bound fields and errors', () => {
    const lines: string[] = [];
    const redactor = createSecretRedactor(collectConfigSecrets(canaryConfig()));
    const logger = createJsonLineLogger({ level: 'debug', write: (line) => lines.push(line), redactor }).child({
      bound: canary.header,
    });
    logger.debug(`message with ${canary.bearer}`, {
      stderr: `tail ${canary.envLiteral}`,
      nested: { deeper: [{ value: canary.authToken }] },
      error: new Error(`failed with ${canary.cloudKey}`),
    });
    logger.error('plain', { url: `https://h/?x=${encodeURIComponent(canary.urlPassword)}` });
    const output = lines.join('');
    expect(output).not.toContain('CANARY');
    expect(output).not.toContain(encodeURIComponent(canary.urlPassword));
    const first = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(first).toMatchObject({
      level: 'debug',
      msg: 'message with ***',
      bound: '***',
      stderr: 'tail ***',
      nested: { deeper: [{ value: '***' }] },
      error: { name: 'Error', message: 'failed with ***' },
    });
  });

  it('writes secrets unchanged without a redactor (the host decides)', () => {
    const lines: string[] = [];
    createJsonLineLogger({ write: (line) => lines.push(line) }).info('m', { token: canary.authToken });
    expect(lines[0]).toContain(canary.authToken);
  });
});
