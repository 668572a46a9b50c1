/**
 * For the tests of this folder: a small authorization server of our own on 127.0.0.1 (node:http) that serves
 * metadata, a JWKS and an introspection endpoint, each of which can be made to hang or answer garbage, and counts
 * the requests it gets; plus keys and tokens made with jose. Not part of the app (nothing imports it but tests).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function signingKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** What an endpoint does: answer normally, never answer (a slow server), or answer 200 with something not JSON. */
export type EndpointMode = 'ok' | 'hang' | 'malformed';

export interface TestIssuer {
  /** `http://127.0.0.1:<port>` plus the path, if one was asked for. */
  issuer: string;
  origin: string;
  jwksUri: string;
  introspectionUri: string;
  /** The keys the JWKS lists; replace to rotate. */
  published: SigningKey[];
  /** Requests per path (`/jwks`, `/introspect`, the well-known paths). */
  requests: Map<string, number>;
  /** Introspection answers by token; an unknown token answers `{ active: false }`. */
  introspection: Map<string, Record<string, unknown>>;
  /** The Basic credentials the introspection endpoint takes. */
  clientId: string;
  clientSecret: string;
  modes: { metadata: EndpointMode; jwks: EndpointMode; introspection: EndpointMode };
  /** A token signed with `key` (default the first published), claims over sensible valid defaults. */
  sign(claims?: JWTPayload, key?: SigningKey, header?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export const testAudience = 'https://search.example/mcp';

export async function startTestIssuer(options: { path?: string; keys?: SigningKey[] } = {}): Promise<TestIssuer> {
  const path = options.path ?? '';
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}${path}`;
  const state: TestIssuer = {
    issuer,
    origin,
    jwksUri: `${origin}/jwks`,
    introspectionUri: `${origin}/introspect`,
    published: options.keys ?? [await signingKey('key-1')],
    requests: new Map(),
    introspection: new Map(),
    clientId: 'search mcp',
    clientSecret: 's3cret:with/odd chars',
    modes: { metadata: 'ok', jwks: 'ok', introspection: 'ok' },
    async sign(claims = {}, key = state.published[0] as SigningKey, header = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: testAudience, sub: 'alice', iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })
        .sign(key.privateKey);
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const metadataPaths = new Set([
    `/.well-known/oauth-authorization-server${path}`,
    `/.well-known/openid-configuration${path}`,
    `${path}/.well-known/openid-configuration`,
  ]);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    state.requests.set(url.pathname, (state.requests.get(url.pathname) ?? 0) + 1);
    const body = await readBody(request);
    const mode = metadataPaths.has(url.pathname)
      ? state.modes.metadata
      : url.pathname === '/jwks'
        ? state.modes.jwks
        : url.pathname === '/introspect'
          ? state.modes.introspection
          : 'ok';
    if (mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (mode === 'malformed')
      return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":');
    if (url.pathname === `/.well-known/oauth-authorization-server${path}`)
      return json(response, { issuer, jwks_uri: state.jwksUri, introspection_endpoint: state.introspectionUri });
    if (url.pathname === '/jwks') return json(response, { keys: state.published.map((key) => key.publicJwk) });
    if (url.pathname === '/introspect' && request.method === 'POST') {
      const expected = `Basic ${Buffer.from(`${form(state.clientId)}:${form(state.clientSecret)}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return json(response, { error: 'invalid_client' }, 401);
      const token = new URLSearchParams(body).get('token') ?? '';
      return json(response, state.introspection.get(token) ?? { active: false });
    }
    json(response, { error: 'not_found' }, 404);
  }
  return state;
}

function json(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function form(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** A URL on 127.0.0.1 where nothing listens (connection refused): a port just freed. */
export async function refusedUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

/** base64url of a JSON value, to build tokens jose would never sign (`alg: none`, tampered payloads). */
export function base64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** jose's `jwtVerify` alone with the public key in hand, for the benchmark's reference row (bench/oauth-resource-bench.ts). */
export async function joseAlone(key: SigningKey, issuer: string): Promise<(token: string) => Promise<boolean>> {
  const publicKey = await importJWK(key.publicJwk, key.alg);
  return async (token) =>
    (await jwtVerify(token, publicKey, { issuer, audience: testAudience })).payload.sub !== undefined;
}
