import { createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll } from 'vitest';

/**
 * A small authorization server and resource server in one, speaking the wire formats the oidc-provider fixture does not
 * offer here: the JWT-bearer grant (RFC 7523 §2.1, workload identity federation) and DPoP (RFC 9449: a proof at the
 * token endpoint and with every request, `DPoP` tokens bound to the proof's key, nonces demanded with
 * `use_dpop_nonce`). Requests it lets through go to a plain MCP server (`target`) without the credentials.
 */
export interface GrantWireServerOptions {
  /** The plain MCP endpoint behind it. */
  target: string;
  /** The assertion a `jwt-bearer` request must present; any other is refused with `invalid_grant`. */
  assertion?: string;
  /** DPoP: proofs required at both ends, tokens of type `DPoP` bound to the proof's key. */
  dpop?: boolean;
  /** With `dpop`: the first proof without the current nonce is answered `use_dpop_nonce` (token endpoint and MCP). */
  requireNonce?: boolean;
  /**
   * An enterprise identity provider too, at `/idp/token`: it exchanges this ID token (RFC 8693) for an ID-JAG for this
   * authorization server and resource, which the token endpoint then takes as a `jwt-bearer` assertion.
   */
  idToken?: string;
}

export interface GrantWireActivity {
  tokenRequests: Array<Record<string, string>>;
  /** Token exchanges at the identity provider (`/idp/token`). */
  exchanges: Array<Record<string, string>>;
  /** Token requests answered `use_dpop_nonce`, and MCP requests answered so. */
  tokenNonceChallenges: number;
  resourceNonceChallenges: number;
  /** MCP requests let through, each with the scheme it used. */
  schemes: string[];
  /** Every proof `jti` seen (a reused one is refused). */
  proofIds: string[];
}

const tokenNonce = 'token-endpoint-nonce';
const resourceNonce = 'resource-server-nonce';

export async function startGrantWireServer(options: GrantWireServerOptions) {
  const activity: GrantWireActivity = {
    tokenRequests: [],
    exchanges: [],
    tokenNonceChallenges: 0,
    resourceNonceChallenges: 0,
    schemes: [],
    proofIds: [],
  };
  /** Issued tokens and the key thumbprint each is bound to (empty: a bearer token). */
  const issued = new Map<string, string>();
  const grants = new Set<string>();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A stream being relayed when it failed (the client went away): nothing more can be said on it.
      if (response.headersSent) response.destroy();
      else response.writeHead(500).end(String(error));
    });
  });
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    const url = new URL(request.url ?? '/', origin());
    const body = await readBody(request);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(response, 200, { resource: `${origin()}/mcp`, authorization_servers: [origin()] });
    }
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server')) {
      return json(response, 200, {
        issuer: origin(),
        authorization_endpoint: `${origin()}/authorize`,
        token_endpoint: `${origin()}/token`,
        grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
        response_types_supported: ['code'],
        ...(options.dpop ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
      });
    }
    if (url.pathname === '/token') return token(request, response, body);
    if (url.pathname === '/idp/token' && options.idToken !== undefined) return exchange(response, body);
    if (url.pathname === '/mcp') return resource(request, response, body);
    response.writeHead(404).end();
  }

  function token(request: IncomingMessage, response: ServerResponse, body: Buffer): unknown {
    const params = Object.fromEntries(new URLSearchParams(body.toString()));
    activity.tokenRequests.push(params);
    let thumbprint = '';
    if (options.dpop) {
      const proof = checkProof(request.headers.dpop, 'POST', `${origin()}/token`);
      if ('error' in proof) return json(response, 400, { error: 'invalid_dpop_proof', error_description: proof.error });
      if (options.requireNonce && proof.nonce !== tokenNonce) {
        activity.tokenNonceChallenges += 1;
        response.setHeader('DPoP-Nonce', tokenNonce);
        return json(response, 400, { error: 'use_dpop_nonce' });
      }
      thumbprint = proof.thumbprint;
    }
    const grant = params.grant_type;
    const acceptable =
      options.idToken !== undefined ? grants.has(params.assertion ?? '') : params.assertion === options.assertion;
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && !acceptable) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'the assertion was refused' });
    }
    if (grant !== 'client_credentials' && grant !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return json(response, 400, { error: 'unsupported_grant_type' });
    }
    const accessToken = `token-${issued.size + 1}`;
    issued.set(accessToken, thumbprint);
    return json(response, 200, {
      access_token: accessToken,
      token_type: options.dpop ? 'DPoP' : 'Bearer',
      expires_in: 3600,
      ...(params.scope ? { scope: params.scope } : {}),
    });
  }

  /** RFC 8693 at the identity provider: the configured ID token for an ID-JAG naming this issuer and resource. */
  function exchange(response: ServerResponse, body: Buffer): unknown {
    const params = Object.fromEntries(new URLSearchParams(body.toString()));
    activity.exchanges.push(params);
    const valid =
      params.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange' &&
      params.requested_token_type === 'urn:ietf:params:oauth:token-type:id-jag' &&
      params.subject_token_type === 'urn:ietf:params:oauth:token-type:id_token' &&
      params.subject_token === options.idToken &&
      params.audience === origin() &&
      params.resource === `${origin()}/mcp`;
    if (!valid) return json(response, 400, { error: 'invalid_grant', error_description: 'the exchange was refused' });
    const grant = `id-jag-${grants.size + 1}`;
    grants.add(grant);
    return json(response, 200, {
      access_token: grant,
      issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      token_type: 'N_A',
      expires_in: 300,
    });
  }

  async function resource(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<unknown> {
    const scheme = options.dpop ? 'DPoP' : 'Bearer';
    const challenge = `${scheme} resource_metadata="${origin()}/.well-known/oauth-protected-resource/mcp"`;
    const [given, accessToken] = (request.headers.authorization ?? '').split(' ');
    const boundTo = accessToken === undefined ? undefined : issued.get(accessToken);
    if (boundTo === undefined || given?.toLowerCase() !== scheme.toLowerCase()) {
      response.setHeader('WWW-Authenticate', challenge);
      return json(response, 401, { error: 'unauthorized' });
    }
    if (options.dpop) {
      const proof = checkProof(request.headers.dpop, request.method ?? 'GET', `${origin()}/mcp`, accessToken);
      if ('error' in proof || proof.thumbprint !== boundTo) {
        response.setHeader('WWW-Authenticate', `DPoP error="invalid_dpop_proof"`);
        return json(response, 401, { error: 'error' in proof ? proof.error : 'the proof is not of the bound key' });
      }
      if (options.requireNonce && proof.nonce !== resourceNonce) {
        activity.resourceNonceChallenges += 1;
        response.setHeader('WWW-Authenticate', `DPoP error="use_dpop_nonce"`);
        response.setHeader('DPoP-Nonce', resourceNonce);
        return json(response, 401, { error: 'use_dpop_nonce' });
      }
    }
    activity.schemes.push(given ?? '');
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value !== 'string' || ['host', 'content-length', 'authorization', 'dpop'].includes(name)) continue;
      headers.set(name, value);
    }
    const answer = await fetch(options.target, {
      method: request.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding') out[name] = value;
    });
    response.writeHead(answer.status, out);
    if (!answer.body) return void response.end();
    for await (const chunk of answer.body) response.write(chunk);
    response.end();
  }

  /** RFC 9449 §4.3: a fresh ES256 proof for this method and URL (and this token), signed by the key it carries. */
  function checkProof(
    header: string | string[] | undefined,
    method: string,
    target: string,
    accessToken?: string,
  ): { thumbprint: string; nonce?: string } | { error: string } {
    if (typeof header !== 'string') return { error: 'no DPoP proof' };
    const [head, payload, signature] = header.split('.');
    if (!head || !payload || !signature) return { error: 'not a JWS' };
    const protectedHeader = JSON.parse(Buffer.from(head, 'base64url').toString()) as {
      typ?: string;
      alg?: string;
      jwk?: JsonWebKey;
    };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    if (protectedHeader.typ !== 'dpop+jwt' || protectedHeader.alg !== 'ES256' || !protectedHeader.jwk) {
      return { error: 'not an ES256 dpop+jwt with its jwk' };
    }
    const key = createPublicKey({ key: protectedHeader.jwk, format: 'jwk' });
    const signed = Buffer.from(`${head}.${payload}`);
    if (!verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) {
      return { error: 'bad signature' };
    }
    if (claims.htm !== method || claims.htu !== target) return { error: `htm/htu ${claims.htm} ${claims.htu}` };
    if (typeof claims.jti !== 'string' || activity.proofIds.includes(claims.jti)) return { error: 'jti reused' };
    activity.proofIds.push(claims.jti);
    if (accessToken !== undefined && claims.ath !== sha256(accessToken)) return { error: 'ath does not match' };
    const { crv, kty, x, y } = protectedHeader.jwk;
    const thumbprint = sha256(JSON.stringify({ crv, kty, x, y }));
    return typeof claims.nonce === 'string' ? { thumbprint, nonce: claims.nonce } : { thumbprint };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${origin()}/mcp`,
    activity,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

export type GrantWireServer = Awaited<ReturnType<typeof startGrantWireServer>>;

/**
 * For a test file: one plain MCP server (the test kit's HTTP fixture) started before its tests, and a function that
 * starts grant wire servers in front of it; all of them are closed after the file's tests.
 */
export function useGrantWireServers(): (options: Omit<GrantWireServerOptions, 'target'>) => Promise<GrantWireServer> {
  const closers: Array<() => unknown> = [];
  let target: string | undefined;
  beforeAll(async () => {
    const plain = await startHttpFixture();
    closers.push(() => plain.child.kill());
    target = plain.url;
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });
  return async (options) => {
    if (target === undefined) throw new Error('useGrantWireServers: the plain server is not started yet');
    const wire = await startGrantWireServer({ ...options, target });
    closers.push(() => wire.close());
    return wire;
  };
}
