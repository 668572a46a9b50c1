import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationServer, startAuthorizationServer } from './authorization-server.js';
import { startCallbackListener } from './oauth-test-client.js';
import { InMemoryOAuthProvider } from './sdk-oauth-login.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './protected-mcp-server.js';

/**
 * The 2.x client SDK's own OAuth (its public `OAuthClientProvider` interface, in memory: `InMemoryOAuthProvider`)
 * against the fixtures: what an MCP client built on the SDK's auth module goes through. The provider "opens" the
 * authorization URL by following it with `fetch`, as a test opener does.
 */
let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let listener: Awaited<ReturnType<typeof startCallbackListener>>;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  listener = await startCallbackListener();
});

afterAll(async () => {
  await mcpServer?.close();
  await authorizationServer?.close();
  await listener?.close();
});

const lastCallback = () => listener.callbacks.at(-1) ?? new URLSearchParams();

describe('the 2.x client SDK authorizing against the fixtures', () => {
  it('discovers, registers, authorizes, calls, and steps up to a wider scope on 403', async () => {
    const provider = new InMemoryOAuthProvider(listener);
    const firstTransport = new StreamableHTTPClientTransport(mcpServer.url, { authProvider: provider });
    await expect(new Client({ name: 'oauth-sdk-test', version: '1.0.0' }).connect(firstTransport)).rejects.toThrow(
      UnauthorizedError,
    );
    expect(authorizationServer.activity.registrations).toBe(1);
    const asked = provider.authorizationUrls[0]?.searchParams;
    // The scope of the 401's challenge (the SDK adds `offline_access`, which the metadata lists).
    expect(asked?.get('scope')?.split(' ')).toContain('mcp:read');
    expect(asked?.get('resource')).toBe(mcpServer.url.href);
    expect(asked?.get('code_challenge_method')).toBe('S256');
    expect(lastCallback().get('iss')).toBe(authorizationServer.issuer);
    await firstTransport.finishAuth(lastCallback());
    expect(provider.stored?.refresh_token).toBeTruthy();

    const transport = new StreamableHTTPClientTransport(mcpServer.url, { authProvider: provider });
    const client = new Client({ name: 'oauth-sdk-test', version: '1.0.0' });
    await client.connect(transport);
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    const [content] = whoami.content as Array<{ text: string }>;
    expect(JSON.parse(content?.text ?? '{}')).toMatchObject({ sub: 'test-user', scope: 'mcp:read' });

    // Step-up: the SDK reads the 403's scope, authorizes again with the union, and needs the code back.
    await expect(client.callTool({ name: 'write_note', arguments: { text: 'hi' } })).rejects.toThrow(UnauthorizedError);
    const steppedUp = provider.authorizationUrls.at(-1)?.searchParams.get('scope')?.split(' ');
    expect(steppedUp).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    await transport.finishAuth(lastCallback());
    const noted = await client.callTool({ name: 'write_note', arguments: { text: 'hi' } });
    expect((noted.content as Array<{ text: string }>)[0]?.text).toBe('noted: hi');
    expect(authorizationServer.activity.tokenRequests.authorization_code).toBe(2);
    await client.close();
  });
});
