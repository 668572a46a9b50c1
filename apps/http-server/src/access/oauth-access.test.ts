import { createJsonLineLogger, type OAuthResourceConfig } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mainToken,
  mcpClient,
  readJsonLines,
  request,
  type Running,
  startApp,
  temporaryDirectory,
} from '../../test/http-test-support.js';
import { startTestIssuer, type TestIssuer, testAudience } from './oauth-resource/oauth-resource-test-support.js';

/**
 * `auth.oauth` in the app (docs/oauth-in-front.md): the protected-resource metadata, the 401 that names it, OAuth
 * access tokens beside static tokens, and roles deciding projects, servers, tools and admin, the same on REST and MCP.
 * The issuer is a small JWKS server of ours; tokens are JWTs signed with its keys.
 */
const publicUrl = 'https://search.example';
const metadataUrl = 'https://search.example/.well-known/oauth-protected-resource/mcp';

let issuer: TestIssuer;
let app: Running;
let directory: { path: string; remove: () => Promise<void> };
let auditFile: string;
/** Every line the app logged. */
const logLines: string[] = [];

const oauthConfig = (): OAuthResourceConfig => ({
  issuer: issuer.issuer,
  requiredScopes: ['mcp'],
  roles: [
    { scopes: ['fixture:use'], tools: ['fixture:*'] },
    { scopes: ['echo:use'], servers: ['everything'], tools: ['everything:echo', 'fixture:echo'] },
    { claims: { groups: 'alpha-team' }, projects: ['alpha'] },
    { scopes: ['admin'], admin: true },
  ],
});

const token = (subject: string, scope: string, claims: Record<string, unknown> = {}) =>
  issuer.sign({ sub: subject, scope, aud: testAudience, ...claims });

beforeAll(async () => {
  issuer = await startTestIssuer();
  directory = await temporaryDirectory();
  auditFile = `${directory.path}/audit.jsonl`;
  const logger = createJsonLineLogger({ level: 'debug', write: (line) => logLines.push(line) });
  app = await startApp({ auditFile, app: { oauth: oauthConfig(), publicUrl, logger } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await issuer?.close();
  await directory?.remove();
});

describe('auth.oauth: the app as an OAuth-protected resource', () => {
  it('serves its protected-resource metadata (RFC 9728) without a token, at both well-known paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const metadata = await request(app.url, path, { token: null });
      expect(metadata.status).toBe(200);
      expect(metadata.body).toEqual({
        resource: testAudience,
        authorization_servers: [issuer.issuer],
        // Only the required scopes: the roles' scopes (admin above all) are not advertised to every client.
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
        resource_name: 'Search MCP',
      });
    }
  });

  it('answers a request without a token 401 naming the metadata and the scopes to ask for', async () => {
    for (const path of ['/v1/tools', '/mcp']) {
      const refused = await request(app.url, path, { token: null, body: path === '/mcp' ? {} : undefined });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
    }
  });

  it('refuses a token without the required scope (403 insufficient_scope) and one matching no role (403)', async () => {
    const noRequired = await request(app.url, '/v1/tools', { token: await token('eve', 'fixture:use') });
    expect(noRequired.status).toBe(403);
    expect(noRequired.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(noRequired.headers.get('www-authenticate')).toMatch(/scope="mcp"/);
    const noRole = await request(app.url, '/v1/tools', { token: await token('eve', 'mcp') });
    expect([noRole.status, noRole.body?.code]).toEqual([403, 'AUTHORIZATION_ERROR']);
    expect(noRole.body?.error).toMatch(/no role/);
  });

  it('refuses a token for another resource with 401 invalid_token, and keeps static tokens working beside OAuth', async () => {
    const foreign = await issuer.sign({ sub: 'eve', scope: 'mcp fixture:use', aud: 'https://other.example/mcp' });
    const refused = await request(app.url, '/v1/tools', { token: foreign });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"/);
    expect(JSON.stringify(refused.body)).not.toContain(foreign);
    expect((await request(app.url, '/v1/tools', { token: mainToken })).status).toBe(200);
  });

  it('logs why a token was refused, never the token, and keeps serving other callers', async () => {
    const expired = await issuer.sign({ sub: 'kim', scope: 'mcp fixture:use', aud: testAudience, exp: 1_000_000 });
    const refused = await request(app.url, '/v1/tools', { token: expired });
    expect([refused.status, refused.body?.error]).toEqual([
      401,
      'Unauthorized: OAuth token refused: the token has expired',
    ]);
    const line = logLines.find((entry) => entry.includes('OAuth token refused') && entry.includes('expired at'));
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({
      level: 'info',
      path: '/v1/tools',
      status: 401,
      error: 'invalid_token',
    });
    expect(logLines.join('\n')).not.toContain(expired);
    expect((await request(app.url, '/v1/tools', { token: await token('lee', 'mcp fixture:use') })).status).toBe(200);
  });

  it('shows and runs only the tools a role allows, on REST and over MCP', async () => {
    const fixtureUser = await token('fran', 'mcp fixture:use');
    const listed = await request(app.url, '/v1/tools?limit=100', { token: fixtureUser });
    const keys = ((listed.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.startsWith('fixture:'))).toBe(true);
    const hidden = await request(app.url, '/v1/tools/call', {
      token: fixtureUser,
      body: { name: 'everything:echo', parameters: { message: 'hi' } },
    });
    expect(hidden.status).toBe(404);
    const servers = await request(app.url, '/v1/servers', { token: fixtureUser });
    expect(((servers.body?.servers ?? []) as Array<{ id: string }>).map((server) => server.id)).toEqual(['fixture']);

    // `servers` and `tools` together: only what both allow (everything:echo, not fixture:echo).
    const echoUser = await token('gus', 'mcp echo:use');
    const { client } = await mcpClient(app.url, { authorization: `Bearer ${echoUser}` });
    try {
      const echoed = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'everything:echo', arguments: { message: 'hi' } },
      });
      expect(echoed.isError).toBeFalsy();
      const refused = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'fixture:echo', arguments: { message: 'hi' } },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/not found/i);
      // One tool of a server opens neither its resources nor its prompts: those need the whole server (`server:*`).
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('limits a role with projects to them, and gives admin routes only to an admin role', async () => {
    const alphaUser = await token('hana', 'mcp', { groups: ['alpha-team', 'other'] });
    expect((await request(app.url, '/v1/tools', { token: alphaUser })).status).toBe(403);
    const inAlpha = await request(app.url, '/v1/tools', { token: alphaUser, headers: { 'x-project-id': 'alpha' } });
    expect(((inAlpha.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey)).toEqual([
      'alpha:alpha-report',
    ]);
    const authorizeAsUser = await request(app.url, '/v1/servers/nothing/authorize', {
      method: 'POST',
      token: await token('fran', 'mcp fixture:use'),
    });
    expect(authorizeAsUser.status).toBe(403);
    expect(authorizeAsUser.body?.error).toMatch(/admin role/);
    const authorizeAsAdmin = await request(app.url, '/v1/servers/nothing/authorize', {
      method: 'POST',
      token: await token('ida', 'mcp admin'),
    });
    expect(authorizeAsAdmin.status).toBe(404);
  });

  it('names the OAuth subject in the audit record', async () => {
    await request(app.url, '/v1/tools', { token: await token('judy', 'mcp fixture:use') });
    const records = await readJsonLines(auditFile);
    expect(records.find((record) => record.subject === 'judy')).toMatchObject({ event: 'rest', tokenId: 'oauth:judy' });
  });

  it("serves the metadata only at the resource's own path, behind a prefix too; any other suffix is 404", async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/other',
      '/.well-known/oauth-protected-resource/search/mcp',
    ])
      expect(await request(app.url, path, { token: null })).toMatchObject({
        status: 404,
        body: { success: false, error: expect.stringContaining(path), code: 'NOT_FOUND' },
      });

    const prefixed = await startApp({
      backends: 'none',
      app: { oauth: oauthConfig(), publicUrl: 'https://search.example/search/' },
    });
    try {
      const own = await request(prefixed.url, '/.well-known/oauth-protected-resource/search/mcp', { token: null });
      expect(own).toMatchObject({ status: 200, body: { resource: 'https://search.example/search/mcp' } });
      expect(await request(prefixed.url, '/.well-known/oauth-protected-resource', { token: null })).toMatchObject({
        status: 200,
        body: { resource: 'https://search.example/search/mcp' },
      });
      expect(await request(prefixed.url, '/.well-known/oauth-protected-resource/mcp', { token: null })).toMatchObject({
        status: 404,
        body: { success: false, code: 'NOT_FOUND' },
      });
    } finally {
      await prefixed.close();
    }
  });

  it('sends no introspection request for an address over the failure limit; a valid JWT from it still gets in', async () => {
    const limited = await startApp({
      backends: 'none',
      app: {
        oauth: {
          issuer: issuer.issuer,
          introspection: { url: issuer.introspectionUri, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
        },
        publicUrl,
        failedAuthenticationLimitPerMinute: 2,
      },
    });
    try {
      const before = issuer.requests.get('/introspect') ?? 0;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1)
        statuses.push((await request(limited.url, '/v1/tools', { token: `opaque-guess-${attempt}` })).status);
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect((issuer.requests.get('/introspect') ?? 0) - before).toBe(2);
      const valid = await issuer.sign({ sub: 'mia', scope: 'mcp', aud: testAudience });
      expect((await request(limited.url, '/v1/tools', { token: valid })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
