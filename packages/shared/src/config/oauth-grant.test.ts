import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

/** `oauth.grant`, `privateKey`, `assertion`, `dpop` (docs/oauth.md, "Without a person" and "DPoP"). */
describe('server entry: oauth grants without a person', () => {
  const parse = (oauth: unknown, env: Record<string, string> = {}) =>
    parseConfig({ mcpServers: { s: { url: 'https://example.com/mcp', oauth } } }, { env }).mcpServers.s;

  it('keeps the grant, expands the key and the assertion from the environment, keeps dpop', () => {
    const server = parse(
      {
        grant: 'client_credentials',
        clientId: 'machine',
        privateKey: '${KEY}',
        signingAlgorithm: 'ES256',
        dpop: true,
      },
      { KEY: '-----BEGIN PRIVATE KEY-----' },
    );
    expect(server?.configError).toBeUndefined();
    expect(server).toMatchObject({
      oauth: {
        grant: 'client_credentials',
        clientId: 'machine',
        privateKey: '-----BEGIN PRIVATE KEY-----',
        signingAlgorithm: 'ES256',
        dpop: true,
      },
    });
    const workload = parse({ grant: 'jwt-bearer', clientId: 'ci', assertion: '${TOKEN}' }, { TOKEN: 'eyJ.x.y' });
    expect(workload).toMatchObject({ oauth: { grant: 'jwt-bearer', assertion: 'eyJ.x.y' } });
    const enterprise = parse(
      {
        grant: 'enterprise-managed',
        clientId: 'search-mcp',
        identityProvider: { issuer: 'https://idp.example.com', clientId: 'idp-client', idToken: '${ID_TOKEN}' },
      },
      { ID_TOKEN: 'eyJ.id.token' },
    );
    expect(enterprise?.configError).toBeUndefined();
    expect(enterprise).toMatchObject({
      oauth: {
        identityProvider: { issuer: 'https://idp.example.com', clientId: 'idp-client', idToken: 'eyJ.id.token' },
      },
    });
  });

  it('makes only that server fail when the grant lacks what it presents, or names an unknown grant', () => {
    expect(parse({ grant: 'client_credentials', clientId: 'machine' })?.configError).toMatch(
      /clientSecret.*privateKey/,
    );
    expect(parse({ grant: 'client_credentials', clientSecret: 'x' })?.configError).toMatch(/clientId/);
    expect(parse({ grant: 'jwt-bearer', clientId: 'ci' })?.configError).toMatch(/assertion/);
    expect(parse({ grant: 'password' })?.configError).toMatch(/oauth/);
    expect(parse({ grant: 'enterprise-managed', clientId: 'c' })?.configError).toMatch(/identityProvider/);
    const noEndpoint = { clientId: 'idp-client', idToken: 'x' };
    expect(parse({ grant: 'enterprise-managed', clientId: 'c', identityProvider: noEndpoint })?.configError).toMatch(
      /issuer.*tokenEndpoint/,
    );
  });
});
