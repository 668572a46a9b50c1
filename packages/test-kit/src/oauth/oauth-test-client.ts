/**
 * A bare OAuth 2.1 client for the fixtures' own test (only `startCallbackListener` is exported): discovery, registration, PKCE, the authorization
 * request followed with `fetch` to a loopback callback listener, the code exchange and refresh, each one request
 * with `fetch` and `node:crypto`, so the test sees every parameter and answer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  scopes_supported: string[];
  code_challenge_methods_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
  [key: string]: unknown;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** The loopback listener an authorization ends on (RFC 8252 §7.3): records each callback's query. */
export async function startCallbackListener() {
  const callbacks: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    callbacks.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('authorized, you may close this window');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    callbacks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const jwtClaims = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

export function createPkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function discover(issuer: string): Promise<AuthorizationServerMetadata> {
  const response = await fetch(new URL('/.well-known/oauth-authorization-server', issuer));
  if (!response.ok) throw new Error(`metadata: HTTP ${response.status}`);
  return (await response.json()) as AuthorizationServerMetadata;
}

/** Dynamic registration (RFC 7591) of a public native client; answers its `client_id`. */
export async function registerNativeClient(metadata: AuthorizationServerMetadata, redirectUri: string) {
  const response = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      application_type: 'native',
      client_name: 'oauth fixture test',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (response.status !== 201) throw new Error(`registration: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  resource: string;
  scope: string;
}

/**
 * Follows the authorization URL with `fetch` (redirects followed, no cookies kept) and answers the parameters the
 * callback listener received, with the PKCE verifier to exchange the code with.
 */
export async function authorize(
  metadata: AuthorizationServerMetadata,
  listener: Awaited<ReturnType<typeof startCallbackListener>>,
  request: AuthorizationRequest,
) {
  const pkce = createPkcePair();
  const state = randomBytes(16).toString('base64url');
  const url = new URL(metadata.authorization_endpoint);
  const params = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    resource: request.resource,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const before = listener.callbacks.length;
  const response = await fetch(url);
  const body = await response.text();
  const callback = listener.callbacks[before];
  if (!response.ok || callback === undefined) throw new Error(`authorization: HTTP ${response.status} ${body}`);
  return { callback, state, verifier: pkce.verifier, landedOn: new URL(response.url) };
}

export async function tokenRequest(
  metadata: AuthorizationServerMetadata,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: TokenResponse & { error?: string } }> {
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as TokenResponse & { error?: string } };
}

/** Authorization then code exchange: the tokens of a public client for `resource`. */
export async function obtainTokens(
  metadata: AuthorizationServerMetadata,
  listener: Awaited<ReturnType<typeof startCallbackListener>>,
  request: AuthorizationRequest,
): Promise<TokenResponse> {
  const { callback, verifier } = await authorize(metadata, listener, request);
  const exchanged = await tokenRequest(metadata, {
    grant_type: 'authorization_code',
    code: callback.get('code') ?? '',
    redirect_uri: request.redirectUri,
    code_verifier: verifier,
    client_id: request.clientId,
    resource: request.resource,
  });
  if (exchanged.status !== 200) throw new Error(`code exchange: HTTP ${exchanged.status} ${exchanged.body.error}`);
  return exchanged.body;
}

/** A raw JSON-RPC POST to the MCP endpoint (2025-11-25), to read the HTTP answer itself. */
export async function postJsonRpc(
  url: URL,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
}

export const initializeRequest = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'oauth-test', version: '1.0.0' } },
};
