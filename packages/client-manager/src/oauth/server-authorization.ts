import {
  BackendAuthorizationError,
  type Logger,
  type McpFetchLike,
  type RemoteOAuthSettings,
  type ServerOAuthStatus,
  untilAborted,
} from '@search-mcp/shared';
import type { AuthorizationCallback } from './authorization-callback.js';
import { AuthorizationSteps } from './authorization-steps.js';
import { asksForBearer, type Challenge, insufficientScope, readChallenge, withBearer } from './bearer-challenge.js';
import type { LoopbackCallback } from './loopback-callback.js';
import { cleanText, flowFailure, needsAuthorization } from './oauth-failure.js';
import type { AuthorizationOpener } from './oauth-options.js';
import { oauthSdk } from './oauth-sdk.js';
import { revokeTokens } from './token-revocation.js';
import type { OAuthStore } from './oauth-store.js';
import { expiresAt, refreshDueAt } from './stored-credentials.js';
import { StoredOAuthProvider } from './stored-oauth-provider.js';

export interface ServerAuthorizationSettings {
  serverId: string;
  serverUrl: string;
  /** The config's `oauth` (empty when the key is absent). */
  settings: RemoteOAuthSettings;
  store: OAuthStore;
  opener: AuthorizationOpener | false;
  authorizationTimeoutMs: number;
  clientName: string;
  logger: Logger;
  /** Masks a token in everything the manager reports from now on. */
  onSecret: (secret: string) => void;
  /** Tokens were obtained: a server waiting for them connects again. */
  onAuthorized: () => void;
  /** An authorization ended without tokens (the server says why, where nothing else is waiting to). */
  onFailed?: (error: unknown) => void;
  /** Where the credentials are stored. Default: the server's own key; a per-user caller's own key otherwise. */
  storeKey?: string;
}

interface AuthorizeRequest {
  challenge: Challenge;
  /** A person may be asked (the opener); else only a refresh is tried. */
  interactive: boolean;
  /** Skip the refresh: a wider scope needs a new authorization (step-up). */
  force?: boolean;
  /**
   * Discover again first: a refused token may mean the server moved to another authorization server (the SDK never
   * drops its cached discovery by itself). Never while a flow runs (its callback leg needs the discovery it made).
   */
  rediscover?: boolean;
}

/** A token endpoint refusal of the credentials themselves (RFC 6749 §5.2), not of this one request. */
function refusesCredentials(message: string): boolean {
  return /\b(invalid_grant|invalid_client|unauthorized_client)\b/.test(message);
}

/** Step-ups one request may take before its 403 is returned as it is (the server keeps asking for more). */
const maxStepUps = 2;

/**
 * OAuth 2.1 to one backend server (docs/oauth.md), on the SDK's `auth()`: refresh before expiry and on 401, a new
 * authorization through the opener and a loopback redirect when refresh cannot help (or a host's own callback:
 * `begin()`/`complete()`), `state` checked here and `iss` by the SDK. One authorization at a time per server: requests
 * that meet a 401 together wait for the same one.
 */
export class ServerAuthorization {
  readonly provider: StoredOAuthProvider;
  private inFlight: Promise<void> | undefined;
  private waitingForBrowser = false;
  /** The server answered 401 asking for OAuth (so it is an OAuth server even before any token). */
  private asked = false;
  private lastChallenge: Challenge = {};
  /** `begin()`'s authorization, completed by `complete()` with the same `state`. */
  private hostFlow: { state: string; challenge: Challenge; timer: NodeJS.Timeout } | undefined;
  /**
   * Logged out on purpose (`logout()`): nobody is asked to authorize again until a login (`login()`, `begin()`), so
   * the server waits in `needs-auth` instead of opening the browser at the reconnect that follows the logout.
   */
  private loggedOut = false;
  /**
   * The token endpoint refused this grant without a person (a bad assertion, key or secret): asked again with the same
   * credentials it would refuse again (RFC 7523 says not to retry), so nothing is sent until a login (`login()`).
   */
  private refusedGrant: Error | undefined;
  private baseFetch: McpFetchLike = fetch;
  private readonly steps: AuthorizationSteps;

  constructor(private readonly options: ServerAuthorizationSettings) {
    this.provider = new StoredOAuthProvider({
      serverId: options.serverId,
      serverUrl: options.serverUrl,
      settings: options.settings,
      store: options.store,
      clientName: options.clientName,
      onSecret: options.onSecret,
      ...(options.storeKey !== undefined ? { storeKey: options.storeKey } : {}),
    });
    this.steps = new AuthorizationSteps({
      serverId: options.serverId,
      serverUrl: options.serverUrl,
      oauth: options.settings,
      provider: this.provider,
      logger: options.logger,
      baseFetch: () => this.baseFetch,
    });
  }

  get serverId(): string {
    return this.options.serverId;
  }

  /** The server's OAuth state for `ServerStatus.oauth`; undefined while it never asked and nothing is stored. */
  status(): ServerOAuthStatus | undefined {
    const tokens = this.provider.latestTokens();
    if (this.waitingForBrowser || this.hostFlow) return { state: 'pending' };
    if (!tokens) return this.asked ? { state: 'needs-auth' } : undefined;
    const status: ServerOAuthStatus = { state: 'authorized', refreshable: tokens.refresh_token !== undefined };
    if (tokens.issuer !== undefined) status.issuer = tokens.issuer;
    if (tokens.scope !== undefined) status.scope = tokens.scope;
    const expiry = expiresAt(tokens);
    if (expiry !== undefined) status.expiresAt = new Date(expiry).toISOString();
    return status;
  }

  /** A person is being asked (the browser is open, or a host's `begin()` waits for its callback). */
  waitingForPerson(): boolean {
    return this.waitingForBrowser || this.hostFlow !== undefined;
  }

  /**
   * An authorization is under way (discovery, registration, a person in the browser, a refresh): a connect that ran out
   * of time meanwhile waits for it, and its end connects the server.
   */
  authorizing(): boolean {
    return this.inFlight !== undefined || this.waitingForPerson();
  }

  /** Resolves when the authorization in progress (if any) ends, whatever its outcome. */
  async settled(): Promise<void> {
    await this.inFlight?.catch(() => {});
  }

  /**
   * Only a login helps: logged out on purpose, or a step-up is pending (the server asked for scope the stored tokens
   * lack, and nobody could be asked then).
   */
  needsLogin(): boolean {
    return this.loggedOut || this.provider.wantedScope !== undefined;
  }

  /** Whether a `complete()` with this `state` belongs here. */
  ownsState(state: string | undefined): boolean {
    return state !== undefined && this.hostFlow?.state === state;
  }

  /** `fetch` for this server's transports and era probe: bearer token, refresh, authorization, step-up. */
  wrap(next: McpFetchLike): McpFetchLike {
    this.baseFetch = next;
    return (url, init) => this.send(next, url, init);
  }

  /** A person authorizes now (`search-mcp auth <server>`): always a new authorization, through the opener. */
  async login(): Promise<void> {
    if (this.options.opener === false && !this.provider.grant.withoutPerson) {
      throw flowFailure(
        this.serverId,
        'authorization',
        'no way to open the authorization URL here (openAuthorizationUrl is false)',
      );
    }
    this.loggedOut = false;
    this.refusedGrant = undefined;
    await this.provider.reload();
    await this.authorize({ challenge: this.lastChallenge, interactive: true, force: true });
  }

  /**
   * The first half of an authorization whose redirect a host receives itself (`search-mcp-http`'s
   * `/oauth/callback`): the URL to send the person to: always a new authorization (the admin asked for one, e.g. for
   * another scope). Undefined when no person is needed (a grant without one, docs/oauth.md: the token endpoint answered).
   */
  async begin(redirectUrl: string): Promise<URL | undefined> {
    this.loggedOut = false;
    this.refusedGrant = undefined;
    this.endHostFlow();
    await this.provider.reload();
    this.provider.redirectTarget = redirectUrl;
    await this.provider.fitRegistrationTo(redirectUrl);
    const challenge = this.lastChallenge;
    const result = await this.steps.run({ challenge, force: true });
    if (result === 'AUTHORIZED') {
      this.options.onAuthorized();
      return undefined;
    }
    const url = this.provider.takeAuthorizationUrl();
    const state = this.provider.expectedState;
    if (!url || state === undefined)
      throw flowFailure(this.serverId, 'authorization', 'the SDK built no authorization URL');
    // A person who never comes back: the flow ends after `authorizationTimeoutMs`, and the server says so.
    const timeoutMs = this.options.authorizationTimeoutMs;
    const timer = setTimeout(() => {
      if (this.hostFlow?.state !== state) return;
      this.endHostFlow();
      const waited = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
      this.options.onFailed?.(needsAuthorization(this.serverId, `nobody completed the authorization within ${waited}`));
    }, timeoutMs);
    timer.unref();
    this.hostFlow = { state, challenge, timer };
    return url;
  }

  private endHostFlow(): void {
    if (this.hostFlow) clearTimeout(this.hostFlow.timer);
    this.hostFlow = undefined;
  }

  /** The second half: the redirect's parameters, exchanged for tokens. */
  async complete(callback: AuthorizationCallback): Promise<void> {
    const flow = this.hostFlow;
    if (!flow)
      throw flowFailure(this.serverId, 'callback', 'no authorization of this server is waiting for a redirect', {
        statusCode: 400,
      });
    try {
      await this.steps.exchange(callback, flow.state, flow.challenge);
      this.options.onAuthorized();
    } catch (error) {
      this.options.onFailed?.(error);
      throw error;
    } finally {
      this.endHostFlow();
    }
  }

  /** Forgets the tokens (revoked at the authorization server first, where it offers revocation). */
  async logout(): Promise<void> {
    // First: a request that meets the revoked token meanwhile (a 2026-07-28 listen stream) must not log in again, nor
    // write the credentials back after they are forgotten.
    this.loggedOut = true;
    // A login started through a host's callback route ends here too: its redirect must not log back in.
    this.endHostFlow();
    await this.settled();
    await this.provider.reload();
    await revokeTokens(this.provider, this.baseFetch).catch((error: unknown) => {
      this.options.logger.warn('could not revoke the OAuth tokens; forgetting them anyway', {
        error: error instanceof Error ? cleanText(error.message) : String(error),
      });
    });
    await this.provider.forget();
    this.asked = true;
  }

  private async send(next: McpFetchLike, url: string | URL, init: RequestInit | undefined): Promise<Response> {
    await this.provider.ensureLoaded();
    await this.refreshIfExpiring();
    const interactive = this.options.opener !== false;
    const target = await this.presenting(next);
    const attempt = () => target(url, withBearer(init, this.provider.latestTokens()?.access_token));
    let response = await attempt();
    let reauthorized = false;
    let stepUps = 0;
    for (;;) {
      if (response.status === 401 && !reauthorized && asksForBearer(response)) {
        const challenge = await this.readChallenge(response, true);
        this.asked = true;
        this.lastChallenge = challenge;
        // The request gives up when its caller does (a connect's startup timeout): the authorization goes on, and its
        // end connects the server (`onAuthorized`).
        await untilAborted(this.authorize({ challenge, interactive, rediscover: true }), init?.signal ?? undefined);
        reauthorized = true;
      } else if (response.status === 403 && stepUps < maxStepUps && (await insufficientScope(response))) {
        const challenge = await this.readChallenge(response);
        const { computeScopeUnion, isStrictScopeSuperset } = await oauthSdk.load();
        const granted = this.provider.latestTokens()?.scope;
        const wanted = computeScopeUnion(granted, this.steps.configScopes(), challenge.scope);
        this.lastChallenge = { ...challenge, ...(wanted !== undefined ? { scope: wanted } : {}) };
        stepUps += 1;
        await untilAborted(
          this.authorize({
            challenge: this.lastChallenge,
            interactive,
            force: isStrictScopeSuperset(wanted, granted),
          }),
          init?.signal ?? undefined,
        );
      } else {
        break;
      }
      response = await attempt();
    }
    if (response.status === 401 && reauthorized) {
      await response.body?.cancel().catch(() => {});
      throw flowFailure(
        this.serverId,
        'resource',
        'the server refused the token it was just given (another audience or scope?)',
      );
    }
    if (response.status === 403 && stepUps >= maxStepUps && (await insufficientScope(response))) {
      // Given up: this request fails with why. Passed on, the 403 would read as a broken connection to the transport.
      await response.body?.cancel().catch(() => {});
      const wanted = this.lastChallenge.scope !== undefined ? ` "${this.lastChallenge.scope}"` : '';
      throw flowFailure(
        this.serverId,
        'resource',
        `the server still asks for scope${wanted} after ${stepUps} new authorizations (the authorization server does not grant it)`,
        { statusCode: 502 },
      );
    }
    return response;
  }

  /**
   * How a token reaches the server: as a bearer token, or with `dpop: true` through the SDK's DPoP layer (the `DPoP`
   * scheme and a fresh proof per request for a DPoP-bound token, a `use_dpop_nonce` challenge retried with the nonce).
   */
  private async presenting(next: McpFetchLike): Promise<McpFetchLike> {
    if (!this.provider.grant.dpop()) return next;
    const { withDpopFromProvider } = await oauthSdk.load();
    return withDpopFromProvider(this.provider)(next as Parameters<ReturnType<typeof withDpopFromProvider>>[0]);
  }

  private async refreshIfExpiring(): Promise<void> {
    const tokens = this.provider.latestTokens();
    const due = tokens ? refreshDueAt(tokens) : undefined;
    if (!tokens?.refresh_token || due === undefined || Date.now() < due) return;
    // A failed refresh here is left to the 401 that follows (it says what to do).
    await this.authorize({ challenge: this.lastChallenge, interactive: false }).catch(() => {});
  }

  private authorize(request: AuthorizeRequest): Promise<void> {
    // After a logout only a login authorizes: nothing is refreshed, nobody asked, the store left as the logout left
    // it. Checked now, not when the request that met the 401 began (a logout may have come in between).
    if (this.loggedOut) return Promise.reject(needsAuthorization(this.serverId, 'logged out'));
    if (this.refusedGrant) return Promise.reject(this.refusedGrant);
    // A host's authorization waits for its redirect: its discovery, PKCE verifier and state must stay as they are
    // until the callback (or its time) comes, so nothing else runs the SDK's flow meanwhile.
    if (this.hostFlow && !this.provider.grant.withoutPerson) {
      return Promise.reject(needsAuthorization(this.serverId, 'an authorization is waiting for its redirect'));
    }
    const running = this.inFlight ?? this.authorizeNow(request);
    if (!this.inFlight) {
      this.inFlight = running;
      void running.then(
        () => {
          this.inFlight = undefined;
        },
        (error: unknown) => {
          this.inFlight = undefined;
          this.options.onFailed?.(error);
        },
      );
    }
    return running;
  }

  private async authorizeNow(request: AuthorizeRequest): Promise<void> {
    // What another process stored since (`search-mcp auth`, another serve's refresh) is read first: a token newer than
    // the refused one is used as it is, and nothing stale is written back over it.
    const refused = this.provider.latestTokens()?.access_token;
    await this.provider.reload();
    const stored = this.provider.latestTokens()?.access_token;
    if (request.rediscover && stored !== undefined && stored !== refused) {
      this.options.onAuthorized();
      return;
    }
    if (request.rediscover) await this.provider.invalidateCredentials('discovery');
    if (this.provider.grant.withoutPerson) {
      // Nobody to ask (docs/oauth.md, "Without a person"): the token endpoint gives a new token for the scope wanted.
      try {
        const result = await this.steps.run({ challenge: request.challenge });
        if (result !== 'AUTHORIZED') throw flowFailure(this.serverId, 'token', 'the token endpoint gave no token');
      } catch (error) {
        // Asked again, the same credentials would be refused again (RFC 7523): a refusal of them is kept until the
        // next login or begin(). A server error or a DPoP proof problem is not such a refusal.
        if (
          BackendAuthorizationError.isInstance(error) &&
          error.step === 'token' &&
          refusesCredentials(error.message)
        ) {
          this.refusedGrant = error;
        }
        throw error;
      }
      this.options.onAuthorized();
      return;
    }
    if (!request.interactive) {
      if (request.force) {
        // A wider scope needs a person: remembered, so the login that follows asks for it.
        await this.provider.setWantedScope(request.challenge.scope);
        const wanted = request.challenge.scope ? ` (it asks for scope "${request.challenge.scope}")` : '';
        throw needsAuthorization(this.serverId, `the stored authorization lacks scope${wanted}`);
      }
      if (!this.provider.latestTokens()?.refresh_token) {
        // A refused token that cannot be renewed is of no more use: forgotten, so the state says `needs-auth`.
        if (request.rediscover && stored !== undefined) await this.provider.invalidateCredentials('tokens');
        throw needsAuthorization(this.serverId);
      }
      const result = await this.steps.run({ challenge: request.challenge });
      if (result !== 'AUTHORIZED') throw needsAuthorization(this.serverId, 'the refresh token was refused');
      this.options.onAuthorized();
      return;
    }
    const loopback = await this.steps.startLoopback();
    try {
      this.provider.redirectTarget = loopback.redirectUrl;
      await this.provider.fitRegistrationTo(loopback.redirectUrl);
      const { computeScopeUnion } = await oauthSdk.load();
      const scope = computeScopeUnion(request.challenge.scope, this.provider.wantedScope);
      const challenge = { ...request.challenge, ...(scope !== undefined ? { scope } : {}) };
      const force = (request.force ?? false) || this.provider.wantedScope !== undefined;
      const result = await this.steps.run({ challenge, force });
      if (result === 'AUTHORIZED') {
        this.options.onAuthorized();
        return;
      }
      await this.authorizeInBrowser(loopback, challenge, request.force === true);
      await this.provider.setWantedScope(undefined);
    } finally {
      await loopback.close();
    }
  }

  private async authorizeInBrowser(loopback: LoopbackCallback, challenge: Challenge, stepUp: boolean): Promise<void> {
    const opener = this.options.opener;
    if (opener === false) throw needsAuthorization(this.serverId);
    this.waitingForBrowser = true;
    try {
      await this.steps.inBrowser({
        loopback,
        challenge,
        stepUp,
        opener,
        timeoutMs: this.options.authorizationTimeoutMs,
      });
    } finally {
      this.waitingForBrowser = false;
    }
    this.options.onAuthorized();
  }

  /**
   * The challenge, with the scope to ask for (docs/oauth.md, "Scopes"): for a 401, the config's `scopes` first, else
   * the challenge's; for a 403 step-up, the challenge's (the scopes the request needs), else the config's.
   */
  private async readChallenge(response: Response, configFirst = false): Promise<Challenge> {
    const challenge = await readChallenge(response);
    const configured = this.steps.configScopes();
    const wanted = configFirst ? (configured ?? challenge.scope) : (challenge.scope ?? configured);
    return wanted !== undefined ? { ...challenge, scope: wanted } : challenge;
  }
}
