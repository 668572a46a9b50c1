import type { Logger, McpFetchLike, RemoteOAuthSettings } from '@search-mcp/shared';
import type { AuthorizationCallback } from './authorization-callback.js';
import type { Challenge } from './bearer-challenge.js';
import { type LoopbackCallback, startLoopbackCallback } from './loopback-callback.js';
import { awaitBrowserRedirect } from './browser-redirect.js';
import { cleanText, describeSdkFailure, flowFailure, needsAuthorization } from './oauth-failure.js';
import type { AuthorizationOpener } from './oauth-options.js';
import { oauthSdk } from './oauth-sdk.js';
import { oneRefusalOnly, stepTrackingFetch } from './oauth-steps.js';
import type { StoredOAuthProvider } from './stored-oauth-provider.js';

export interface AuthorizationStepsSettings {
  serverId: string;
  serverUrl: string;
  /** The config's `oauth`. */
  oauth: RemoteOAuthSettings;
  provider: StoredOAuthProvider;
  logger: Logger;
  /** The fetch of the server's connection (a host's own, or the global one), for the authorization server too. */
  baseFetch: () => McpFetchLike;
}

/**
 * The steps of one authorization with the SDK (docs/oauth.md, "What happens on the wire"): `auth()` with the scope,
 * the resource metadata and the step of each request tracked for the error; the loopback listener for the redirect;
 * the redirect checked (`state`, an error, a code) and exchanged. What runs when, and how many at a time, is
 * `ServerAuthorization`'s.
 */
export class AuthorizationSteps {
  constructor(private readonly settings: AuthorizationStepsSettings) {}

  async exchange(callback: AuthorizationCallback, state: string, challenge: Challenge): Promise<void> {
    if (callback.state !== state) {
      throw flowFailure(
        this.settings.serverId,
        'callback',
        "the redirect's state does not match the authorization Search MCP started (an old or forged redirect)",
        { statusCode: 400 },
      );
    }
    if (callback.error !== undefined) {
      const detail = callback.errorDescription ? `: ${cleanText(callback.errorDescription, 200)}` : '';
      throw flowFailure(
        this.settings.serverId,
        'authorization',
        `the authorization server answered ${cleanText(callback.error, 60)}${detail}`,
      );
    }
    if (callback.code === undefined)
      throw flowFailure(this.settings.serverId, 'callback', 'the redirect carries no code', { statusCode: 400 });
    const result = await this.run({
      challenge,
      authorizationCode: callback.code,
      ...(callback.iss !== undefined ? { iss: callback.iss } : {}),
    });
    if (result !== 'AUTHORIZED')
      throw flowFailure(this.settings.serverId, 'token', 'the code was not exchanged for tokens');
    this.settings.logger.info('OAuth authorization complete');
  }

  async run(request: {
    challenge: Challenge;
    force?: boolean;
    authorizationCode?: string;
    iss?: string;
  }): Promise<'AUTHORIZED' | 'REDIRECT'> {
    const { auth } = await oauthSdk.load();
    const tracking = stepTrackingFetch(
      this.settings.provider.grant.withoutPerson
        ? oneRefusalOnly(this.settings.baseFetch())
        : this.settings.baseFetch(),
    );
    const scope = request.challenge.scope ?? this.configScopes();
    try {
      return await auth(this.settings.provider, {
        serverUrl: this.settings.serverUrl,
        fetchFn: tracking.fetch,
        ...(request.challenge.resourceMetadataUrl
          ? { resourceMetadataUrl: request.challenge.resourceMetadataUrl }
          : {}),
        ...(scope !== undefined ? { scope } : {}),
        ...(request.force ? { forceReauthorization: true } : {}),
        ...(request.authorizationCode !== undefined ? { authorizationCode: request.authorizationCode } : {}),
        ...(request.iss !== undefined ? { iss: request.iss } : {}),
      });
    } catch (error) {
      throw describeSdkFailure(this.settings.serverId, error, tracking.last());
    }
  }

  async startLoopback(): Promise<LoopbackCallback> {
    const configured = this.settings.oauth.redirectPort;
    const port = configured ?? this.settings.provider.registeredLoopbackPort();
    try {
      return await startLoopbackCallback({
        serverId: this.settings.serverId,
        ...(port !== undefined ? { port } : {}),
        required: configured !== undefined,
      });
    } catch (error) {
      throw flowFailure(
        this.settings.serverId,
        'authorization',
        `could not listen for the redirect on 127.0.0.1:${port ?? 0} (redirectPort)`,
        { cause: error },
      );
    }
  }

  configScopes(): string | undefined {
    const scopes = this.settings.oauth.scopes;
    return scopes && scopes.length > 0 ? scopes.join(' ') : undefined;
  }

  /**
   * A person authorizes: the opener shows the authorization URL `run()` built, the redirect comes back to the loopback
   * listener (within `timeoutMs`) and is exchanged. An opener that can show it to nobody now (it resolved `false`):
   * the server waits in `needs-auth` as with no opener at all, and a step-up's wider scope is remembered for the next
   * login.
   */
  async inBrowser(request: {
    loopback: LoopbackCallback;
    challenge: Challenge;
    stepUp: boolean;
    opener: AuthorizationOpener;
    timeoutMs: number;
  }): Promise<void> {
    const { provider, serverId } = this.settings;
    const authorizationUrl = provider.takeAuthorizationUrl();
    const state = provider.expectedState;
    if (!authorizationUrl || state === undefined) {
      throw flowFailure(serverId, 'authorization', 'the SDK built no authorization URL');
    }
    request.loopback.expect(state);
    this.settings.logger.info('waiting for OAuth authorization in the browser');
    const callback = await awaitBrowserRedirect({
      serverId,
      authorizationUrl,
      opener: request.opener,
      loopback: request.loopback,
      timeoutMs: request.timeoutMs,
    });
    const { challenge } = request;
    if (!callback) {
      if (!request.stepUp || challenge.scope === undefined) throw needsAuthorization(serverId);
      await provider.setWantedScope(challenge.scope);
      throw needsAuthorization(
        serverId,
        `the stored authorization lacks scope (it asks for scope "${challenge.scope}")`,
      );
    }
    await this.exchange(callback, state, challenge);
  }
}
