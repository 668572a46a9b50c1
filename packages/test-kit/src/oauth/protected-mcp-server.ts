/**
 * An OAuth-protected Streamable HTTP MCP server for tests, on 127.0.0.1 (ephemeral port), at `/mcp`: the resource
 * server of the MCP authorization spec in front of the 2.x server SDK, both protocol eras on one URL (a request with
 * the 2026-07-28 envelope goes to `createMcpHandler`, anything else to 2025-11-25 sessions), as the conformance
 * fixture serves them.
 *
 * - Every POST/GET/DELETE on `/mcp` needs `Authorization: Bearer <JWT>` from the authorization server (see
 *   `bearer-token-gate.ts`): 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="<required>"`
 *   (`error="invalid_token"` when a token was sent), 403 `insufficient_scope` when the required scopes are missing.
 * - A `tools/call` of a tool listed in `toolScopes` with a token lacking its scopes: 403 `insufficient_scope` naming
 *   the scopes the call needs (step-up).
 * - RFC 9728 metadata at `/.well-known/oauth-protected-resource/mcp` and at the root form
 *   `/.well-known/oauth-protected-resource`.
 */
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { JWTPayload } from 'jose';
import type { AuthorizationServer } from './authorization-server.js';
import { createBearerTokenGate } from './bearer-token-gate.js';
import { createProtectedMcpSessions } from './protected-mcp-sessions.js';
import { createProtectedMcpServer, defaultToolScopes, type ToolScopes } from './protected-mcp-tools.js';
import { listenWebHandler } from './web-request-bridge.js';

export type { ToolScopes } from './protected-mcp-tools.js';

export interface ProtectedMcpServerOptions {
  /** Whose tokens it takes; the server lets it issue tokens for its URL (`allowResource`). */
  authorizationServer: Pick<
    AuthorizationServer,
    'issuer' | 'metadataUrl' | 'scopes' | 'allowResource' | 'isAccessTokenRevoked'
  >;
  /** Scopes every request needs. Default `['mcp:read']`. */
  requiredScopes?: string[];
  /** Scopes a `tools/call` of a tool needs besides the required ones. Default `{ write_note: ['mcp:write'] }`. */
  toolScopes?: ToolScopes;
  /** `scopes_supported` of its RFC 9728 metadata. Default the authorization server's scopes. */
  scopesSupported?: string[];
  /**
   * Whether challenges carry `resource_metadata`. Default true; false makes a client find the metadata at the
   * well-known URLs (the spec's fallback).
   */
  resourceMetadataInChallenge?: boolean;
}

/** What the server saw, for assertions. Counters only grow. */
export interface ProtectedMcpServerActivity {
  /** Requests to `/mcp` (any method). */
  requests: number;
  /** 401 answers sent. */
  unauthorized: number;
  /** 403 answers sent (required scopes missing, or a tool's step-up). */
  forbidden: number;
  /** Requests to the RFC 9728 metadata URLs. */
  metadataRequests: number;
  /** The claims of the last token that passed the gate. */
  lastClaims?: JWTPayload;
  /**
   * Every request whose token passed the gate, in order: the token's `sub` (which user it came as) and the 2025
   * session it belongs to (`Mcp-Session-Id`; none for `initialize` and 2026-07-28 requests).
   */
  tokenUses: { sub: string; sessionId?: string }[];
}

export interface ProtectedMcpServer {
  /** `http://127.0.0.1:<port>/mcp`: the MCP endpoint and the resource (the tokens' audience). */
  url: URL;
  /** `http://127.0.0.1:<port>/.well-known/oauth-protected-resource/mcp`. */
  resourceMetadataUrl: URL;
  activity: ProtectedMcpServerActivity;
  close(): Promise<void>;
}

const metadataPaths = new Set(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);

export async function startProtectedMcpServer(options: ProtectedMcpServerOptions): Promise<ProtectedMcpServer> {
  const { authorizationServer } = options;
  const requiredScopes = options.requiredScopes ?? ['mcp:read'];
  const toolScopes = options.toolScopes ?? defaultToolScopes;
  const activity: ProtectedMcpServerActivity = {
    requests: 0,
    unauthorized: 0,
    forbidden: 0,
    metadataRequests: 0,
    tokenUses: [],
  };
  const metadataResponse = await fetch(authorizationServer.metadataUrl);
  const { jwks_uri: jwksUri } = (await metadataResponse.json()) as { jwks_uri: string };

  const newInstance = () => createProtectedMcpServer(requiredScopes, toolScopes);
  const modern = createMcpHandler(newInstance, { legacy: 'reject' });
  const legacy = createProtectedMcpSessions(newInstance);
  // Set once the port is known; no request arrives before.
  let routes: { url: URL; metadata: object; gate: ReturnType<typeof createBearerTokenGate> } | undefined;

  const handle = async (request: Request): Promise<Response> => {
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins());
    if (rejected) return rejected;
    if (!routes) return new Response('Starting', { status: 503 });
    const { pathname } = new URL(request.url);
    if (metadataPaths.has(pathname) && request.method === 'GET') {
      activity.metadataRequests += 1;
      return Response.json(routes.metadata);
    }
    if (pathname !== routes.url.pathname) return new Response('Not Found', { status: 404 });
    activity.requests += 1;
    const passed = await routes.gate(request);
    const response =
      'refusal' in passed
        ? passed.refusal
        : await (async () => {
            activity.lastClaims = passed.claims;
            const sessionId = request.headers.get('mcp-session-id') ?? undefined;
            activity.tokenUses.push({ sub: String(passed.claims.sub), ...(sessionId ? { sessionId } : {}) });
            return (await isLegacyRequest(request))
              ? legacy.handle(request, passed.authInfo)
              : modern.fetch(request, { authInfo: passed.authInfo });
          })();
    if (response.status === 401) activity.unauthorized += 1;
    if (response.status === 403) activity.forbidden += 1;
    return response;
  };

  const endpoint = await listenWebHandler(handle);
  const url = new URL('/mcp', endpoint.origin);
  const resourceMetadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', endpoint.origin);
  authorizationServer.allowResource(url);
  routes = {
    url,
    metadata: {
      resource: url.href,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: options.scopesSupported ?? [...authorizationServer.scopes],
      bearer_methods_supported: ['header'],
      resource_name: 'OAuth-protected MCP fixture',
    },
    gate: createBearerTokenGate({
      issuer: authorizationServer.issuer,
      jwksUri: new URL(jwksUri),
      resource: url,
      requiredScopes,
      ...(options.resourceMetadataInChallenge === false ? {} : { resourceMetadataUrl: resourceMetadataUrl.href }),
      isRevoked: (jti) => authorizationServer.isAccessTokenRevoked(jti),
    }),
  };
  return {
    url,
    resourceMetadataUrl,
    activity,
    async close() {
      await modern.close();
      await legacy.close();
      await endpoint.close();
    },
  };
}
