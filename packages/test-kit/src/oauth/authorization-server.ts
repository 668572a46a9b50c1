/**
 * A real OAuth 2.1 authorization server for tests: oidc-provider (npm) on 127.0.0.1, an ephemeral port, plain HTTP
 * (oidc-provider takes an `http://` issuer as it is; its cookies are then not `Secure`). What it does, as the MCP
 * authorization spec asks of an authorization server:
 *
 * - RFC 8414 metadata at `/.well-known/oauth-authorization-server` and OpenID discovery at
 *   `/.well-known/openid-configuration` (one document), `authorization_response_iss_parameter_supported: true`
 *   (RFC 9207: the redirect carries `iss`), `scopes_supported` listing the configured scopes;
 * - dynamic client registration (RFC 7591) and pre-registered clients (`registerClient`); a `native` client's
 *   loopback redirect URI matches with any port (RFC 8252 §7.3), a `web` client's only exactly;
 * - authorization code with PKCE S256, required of every client; client credentials for a client registered for it
 *   (secret or `private_key_jwt`);
 * - resource indicators (RFC 8707): the access token is a JWT (RFC 9068, `typ: at+jwt`) whose `aud` is the `resource`
 *   the client sent, one of the allowed resources (the protected MCP servers register theirs); another resource is
 *   refused with `invalid_target`; without `resource` the token is an opaque one that no protected server takes;
 * - scopes: those asked for, all granted; none asked for, `defaultScopes`; the `scope` a client registered with is
 *   not enforced unless `enforceRegisteredScope` (so a step-up to a wider scope works);
 * - a refresh token with every code exchange, without `offline_access` (the client must be allowed the
 *   `refresh_token` grant, which is the default for registered clients); public clients' refresh tokens rotate;
 * - token revocation (RFC 7009); `revokeAll()` for tests;
 * - no UI: the fixed test user logs in and consents to everything asked, so following the authorization URL with
 *   `fetch` (redirects followed) ends on the client's redirect URI with `code`, `state` and `iss`.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import Provider, { errors } from 'oidc-provider';
import type { AuthorizationServerActivity } from './authorization-server-activity.js';
import { watchAuthorizationServer } from './authorization-server-activity.js';
import {
  type AuthorizationServerEndpoint,
  createFaultInjection,
  type PlannedFault,
} from './authorization-server-faults.js';
import { createAutomaticInteractions, interactionPath } from './automatic-interactions.js';
import { createFlowCookieJar } from './flow-cookie-jar.js';
import { createMemoryAdapterStore } from './memory-adapter.js';
import { claimRealService } from '../real-services/real-service-phase.js';

export type { AuthorizationServerEndpoint, PlannedFault } from './authorization-server-faults.js';
export type {
  AuthorizationServerActivity,
  ClientAuthentication,
  RecordedTokenRequest,
} from './authorization-server-activity.js';

export interface AuthorizationServerOptions {
  /** The scopes tokens may carry, advertised in `scopes_supported`. Default `mcp:read mcp:write mcp:admin`. */
  scopes?: string[];
  /** Resources (RFC 8707) tokens may be issued for, besides those added by `allowResource`. */
  resources?: string[];
  /**
   * The scopes granted when an authorization request names none (as a client that found no scope in the challenge
   * or the metadata does). Default the first of `scopes` (`mcp:read`).
   */
  defaultScopes?: string[];
  /** Access-token lifetime in seconds (whole, at least 1). Default 3600. */
  accessTokenTtlSeconds?: number;
  /** Refresh-token lifetime in seconds. Default 86400. */
  refreshTokenTtlSeconds?: number;
  /** The `sub` of the fixed test user. Default `test-user`. */
  subject?: string;
  /** Dynamic client registration (RFC 7591). Default on. */
  dynamicRegistration?: boolean;
  /**
   * Whether a registered client's `scope` (RFC 7591) limits what it may ask for later. Default false: the MCP SDK
   * registers with the scope of its first authorization, and oidc-provider would then refuse every step-up with
   * `invalid_scope`. True keeps oidc-provider's check.
   */
  enforceRegisteredScope?: boolean;
}

/** A pre-registered client. */
export interface ClientRegistration {
  client_id: string;
  /** Given: a confidential client. Absent: a public one (`token_endpoint_auth_method: none`). */
  client_secret?: string;
  /** Default `client_secret_basic` with a secret, `none` without; `private_key_jwt` with `jwks`. */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  /** The public keys of a `private_key_jwt` client (RFC 7523 client assertions are checked against them). */
  jwks?: { keys: Record<string, unknown>[] };
  /** The algorithm its assertions are signed with (oidc-provider's default is RS256). */
  token_endpoint_auth_signing_alg?: string;
  redirect_uris: string[];
  /** Default `native` (a loopback redirect URI then matches with any port). */
  application_type?: 'native' | 'web';
  /** Default `authorization_code` and `refresh_token`. */
  grant_types?: string[];
}

export interface AuthorizationServer {
  /** `http://127.0.0.1:<port>`, the issuer identifier (no trailing slash). */
  issuer: string;
  /** The issuer as a URL. */
  url: URL;
  /** RFC 8414 metadata: `<issuer>/.well-known/oauth-authorization-server`. */
  metadataUrl: URL;
  /** The scopes it knows (those of the options). */
  scopes: readonly string[];
  /** The `sub` of the user who logs in at the next authorizations (the `subject` option, or the last `signInAs`). */
  readonly subject: string;
  /**
   * Another user logs in at the authorizations that reach their login from now on (a flow already past it keeps its
   * user): for tests of two people's tokens against one server. Tokens already issued keep their `sub`.
   */
  signInAs(subject: string): void;
  /** Counters and the last requests, for assertions. */
  activity: AuthorizationServerActivity;
  /** Adds a pre-registered client (static client id, optional secret). */
  registerClient(client: ClientRegistration): Promise<void>;
  /** Lets tokens be issued for this resource (an MCP server's URL). */
  allowResource(resource: string | URL): void;
  /** Changes the lifetimes of tokens issued from now on. */
  setTokenLifetimes(lifetimes: { accessTokenSeconds?: number; refreshTokenSeconds?: number }): void;
  /**
   * Revokes everything: every grant, authorization code, refresh token and session is dropped (a refresh then fails
   * with `invalid_grant`), and every access token issued so far is reported revoked to the resource servers (JWT
   * access tokens are self-contained; a protected MCP server of this kit asks `isAccessTokenRevoked`, as a real
   * resource server would ask its authorization server by introspection). Registered clients stay.
   */
  revokeAll(): void;
  /** Whether the access token with this `jti` was revoked (by `revokeAll`, or its grant revoked by RFC 7009). */
  isAccessTokenRevoked(jti: string): boolean;
  /**
   * The next request(s) to `endpoint` get `fault` instead of oidc-provider's answer (a failing registration,
   * metadata that is not JSON or names another issuer, a token endpoint error …).
   */
  failNext(endpoint: AuthorizationServerEndpoint, fault: PlannedFault): void;
  close(): Promise<void>;
}

export const defaultOAuthScopes = ['mcp:read', 'mcp:write', 'mcp:admin'];

/** Every model a grant lives in; `revokeAll` empties them (clients excepted). */
const grantModels = [
  'Grant',
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
  'Session',
  'Interaction',
  'PushedAuthorizationRequest',
];

let signingKeyOnce: Promise<Record<string, unknown>> | undefined;

/**
 * The RS256 key every fixture authorization server of this process signs with, made once: an RSA-2048 key costs about
 * 0.2 s of CPU, seconds on a loaded 2-core machine, and the OAuth tests start dozens of servers. Sharing it lets no
 * token through where it was refused before: the protected server checks the issuer (and audience) of every token, so
 * a token of another fixture server is still refused.
 */
function fixtureSigningKey(): Promise<Record<string, unknown>> {
  signingKeyOnce ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 }).then(({ privateKey }) => ({
    ...privateKey.export({ format: 'jwk' }),
    kid: 'fixture-signing-key',
    alg: 'RS256',
    use: 'sig',
  }));
  return signingKeyOnce;
}

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  claimRealService('an authorization server (oidc-provider)');
  const scopes = [...(options.scopes ?? defaultOAuthScopes)];
  let subject = options.subject ?? 'test-user';
  const resources = new Set((options.resources ?? []).map((resource) => new URL(resource).href));
  const lifetimes = {
    accessToken: options.accessTokenTtlSeconds ?? 3600,
    refreshToken: options.refreshTokenTtlSeconds ?? 86_400,
  };

  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => {
    response.writeHead(503).end();
  };
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const store = createMemoryAdapterStore();
  const signingKey = await fixtureSigningKey();

  const provider = new Provider(issuer, {
    adapter: (modelName: string) => store.adapterFor(modelName),
    jwks: { keys: [{ ...signingKey }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // Listed here so discovery advertises them (`scopes_supported`); the resource servers grant them.
    scopes: ['openid', 'offline_access', ...scopes],
    findAccount: async (_context: unknown, accountId: string) => ({
      accountId,
      claims: async () => ({ sub: accountId }),
    }),
    // OAuth 2.1: the authorization code flow only (no implicit, no hybrid).
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.dynamicRegistration ?? true },
      // For a client registered with `grant_types: ['client_credentials']` (no user, no browser).
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        // A client revokes only its own tokens (oidc-provider's default rule, stated so it does not warn).
        allowedPolicy: async (_context: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        // A refresh without `resource` gets a token for the resource of the grant.
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_context: unknown, resource: string) => {
          if (!resources.has(resource)) throw new errors.InvalidTarget(`${resource} is not a known resource`);
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: lifetimes.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    pkce: { required: () => true },
    // A refresh token for every client allowed the grant, not only when `offline_access` was asked for, and one
    // that outlives the (cookie) session: an MCP client never has a browser session to keep alive.
    issueRefreshToken: async (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    ttl: {
      RefreshToken: () => lifetimes.refreshToken,
      AccessToken: () => lifetimes.accessToken,
      Grant: () => Math.max(lifetimes.refreshToken, 3600),
      Session: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    interactions: { url: async (_context: unknown, interaction: { uid: string }) => interactionPath(interaction.uid) },
    // Errors on a page as JSON, so a test that followed the authorization URL can read why it failed.
    renderError: async (context: { type: string; body: unknown }, out: Record<string, unknown>) => {
      context.type = 'json';
      context.body = out;
    },
  });
  const faults = createFaultInjection();
  provider.use(faults.middleware);
  const cookieJar = createFlowCookieJar(issuer);
  provider.use(cookieJar.middleware);
  const defaultScope = (options.defaultScopes ?? scopes.slice(0, 1)).join(' ');
  provider.use(async (context, next) => {
    // oidc-provider grants nothing to a request without `scope` (access_denied); a default scope is common practice.
    if (context.method === 'GET' && context.path === '/auth' && !context.query.scope && defaultScope !== '') {
      context.query = { ...context.query, scope: defaultScope };
    }
    await next();
  });
  provider.use(createAutomaticInteractions(provider, () => subject));
  const watched = watchAuthorizationServer(provider);
  if (options.enforceRegisteredScope !== true) {
    provider.on('registration_create.success', (_context: unknown, client: { clientId: string }) => {
      store.update('Client', client.clientId, (metadata) => {
        delete metadata.scope;
      });
    });
  }
  handle = provider.callback();

  return {
    issuer,
    url: new URL(issuer),
    metadataUrl: new URL('/.well-known/oauth-authorization-server', issuer),
    scopes,
    get subject() {
      return subject;
    },
    signInAs(next) {
      subject = next;
    },
    activity: watched.activity,
    async registerClient(client) {
      const metadata = {
        application_type: 'native',
        grant_types: ['authorization_code', 'refresh_token'],
        // A client without the code grant (client credentials only) has no authorization responses (and no redirect).
        response_types: client.grant_types && !client.grant_types.includes('authorization_code') ? [] : ['code'],
        token_endpoint_auth_method: client.client_secret === undefined ? 'none' : 'client_secret_basic',
        ...client,
      };
      await store.adapterFor('Client').upsert(client.client_id, metadata, 0);
    },
    allowResource(resource) {
      resources.add(new URL(resource).href);
    },
    setTokenLifetimes({ accessTokenSeconds, refreshTokenSeconds }) {
      if (accessTokenSeconds !== undefined) lifetimes.accessToken = accessTokenSeconds;
      if (refreshTokenSeconds !== undefined) lifetimes.refreshToken = refreshTokenSeconds;
    },
    revokeAll() {
      store.clear(grantModels);
      cookieJar.clear();
      watched.revokeIssuedAccessTokens();
    },
    isAccessTokenRevoked: watched.isAccessTokenRevoked,
    failNext: faults.failNext,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
