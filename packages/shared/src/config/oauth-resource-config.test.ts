import { describe, expect, it } from 'vitest';
import { collectConfigSecrets } from '../secrets/config-secrets.js';
import { ConfigError } from '../errors/config-error.js';
import { parseConfig } from './parse-config.js';

/** `auth.oauth` and per-server `identity` (docs/oauth-in-front.md). */
describe('auth.oauth', () => {
  it('resolves the issuer, a single audience as a list, the introspection secret, roles with tool keys', () => {
    const config = parseConfig(
      {
        mcpServers: {},
        auth: {
          oauth: {
            issuer: 'https://login.example.com',
            audience: 'https://search.example.com/mcp',
            introspection: { clientId: 'search-mcp', clientSecret: '${INTROSPECTION_SECRET}' },
            requiredScopes: ['mcp'],
            claims: { email_verified: true, groups: ['eng', 'ops'] },
            roles: [
              { scopes: ['mcp:admin'], admin: true },
              {
                claims: { groups: 'eng' },
                projects: ['web'],
                servers: ['github'],
                tools: ['github.search_code', 'linear:*'],
              },
            ],
          },
        },
      },
      { env: { INTROSPECTION_SECRET: 'introspection-secret-value' } },
    );
    expect(config.auth.oauth).toEqual({
      issuer: 'https://login.example.com',
      audience: ['https://search.example.com/mcp'],
      introspection: { clientId: 'search-mcp', clientSecret: 'introspection-secret-value' },
      requiredScopes: ['mcp'],
      claims: { email_verified: true, groups: ['eng', 'ops'] },
      roles: [
        { scopes: ['mcp:admin'], admin: true },
        {
          claims: { groups: 'eng' },
          projects: ['web'],
          servers: ['github'],
          tools: ['github:search_code', 'linear:*'],
        },
      ],
    });
    expect(collectConfigSecrets(config)).toContain('introspection-secret-value');
  });

  it('refuses an issuer that is not a URL, a tool that is not a key, a missing issuer; warns about unknown keys', () => {
    const error = (() => {
      try {
        parseConfig({
          mcpServers: {},
          auth: { oauth: { issuer: 'login.example.com', roles: [{ tools: ['no-separator'] }] } },
        });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([
      { path: 'auth.oauth.issuer', message: 'expected an http or https URL' },
      { path: 'auth.oauth.roles[0].tools[0]', message: 'expected a tool key "server:tool" or "server:*"' },
    ]);
    expect(() => parseConfig({ mcpServers: {}, auth: { oauth: { audience: 'x' } } })).toThrow(/auth\.oauth\.issuer/);
    const warned = parseConfig({
      mcpServers: {},
      auth: { oauth: { issuer: 'https://login.example.com', issuers: [], roles: [{ scope: ['a'] }] } },
    });
    expect(warned.warnings.join('\n')).toMatch(/auth\.oauth\.issuers/);
    expect(warned.warnings.join('\n')).toMatch(/auth\.oauth\.roles\[0\]\.scope/);
  });

  it('keeps the token ids of OAuth callers (oauth:<sub>) out of auth.tokens', () => {
    expect(() =>
      parseConfig({ mcpServers: {}, auth: { tokens: [{ id: 'oauth:alice', token: 'a-long-enough-token' }] } }),
    ).toThrow('auth.tokens[0].id: ids starting with "oauth:" name OAuth callers');
  });

  it('is absent without the key: static tokens only', () => {
    expect(parseConfig({ mcpServers: {} }).auth).toEqual({ tokens: [], allowAnonymous: false });
  });
});

describe('server entry: identity', () => {
  it('keeps per-user on a remote server, leaves shared (the default) out', () => {
    const config = parseConfig({
      mcpServers: {
        github: { url: 'https://github.example.com/mcp', identity: 'per-user' },
        linear: { url: 'https://linear.example.com/mcp', identity: 'shared' },
      },
    });
    expect(config.mcpServers.github).toMatchObject({ identity: 'per-user' });
    expect(config.mcpServers.linear).not.toHaveProperty('identity');
  });

  it('marks per-user on a local server, or with oauth: false, as a broken entry (the others still run)', () => {
    const config = parseConfig({
      mcpServers: {
        local: { command: 'node', args: ['server.js'], identity: 'per-user' },
        basic: { url: 'https://basic.example.com/mcp', oauth: false, identity: 'per-user' },
        typo: { url: 'https://typo.example.com/mcp', identity: 'per-person' },
        fine: { url: 'https://fine.example.com/mcp' },
      },
    });
    expect(config.mcpServers.local?.configError).toMatch(
      /^mcpServers\.local\.identity: "per-user" needs a remote server/,
    );
    expect(config.mcpServers.basic?.configError).toMatch(/^mcpServers\.basic\.identity: "per-user" needs OAuth/);
    expect(config.mcpServers.typo?.configError).toMatch(/^mcpServers\.typo\.identity/);
    expect(config.mcpServers.fine?.configError).toBeUndefined();
  });

  it('marks per-user with its own Authorization header and no "oauth" key as a broken entry', () => {
    const config = parseConfig({
      mcpServers: {
        keyed: {
          url: 'https://keyed.example.com/mcp',
          headers: { AUTHORIZATION: 'Bearer shared-secret' },
          identity: 'per-user',
        },
        withOAuth: {
          url: 'https://with-oauth.example.com/mcp',
          headers: { Authorization: 'Bearer shared-secret' },
          oauth: { clientId: 'search-mcp' },
          identity: 'per-user',
        },
        otherHeader: { url: 'https://other.example.com/mcp', headers: { 'X-Team': 'alpha' }, identity: 'per-user' },
      },
    });
    expect(config.mcpServers.keyed?.configError).toBe(
      'mcpServers.keyed.identity: "per-user" needs OAuth: each caller authorizes with their own account (remove the Authorization header or add an "oauth" key)',
    );
    expect(config.mcpServers.withOAuth?.configError).toBeUndefined();
    expect(config.mcpServers.otherHeader?.configError).toBeUndefined();
  });
});
