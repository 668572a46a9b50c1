import { randomBytes } from 'node:crypto';
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteOAuthSettings } from '@search-mcp/shared';
import type { OAuthStore } from './oauth-store.js';
import { credentialsKey, parseCredentials, type SavedTokens, type StoredCredentials } from './stored-credentials.js';
import { TokenGrant } from './token-grant.js';

export interface StoredOAuthProviderSettings {
  serverId: string;
  serverUrl: string;
  settings: RemoteOAuthSettings;
  store: OAuthStore;
  /** The name registered with authorization servers (`client_name`). */
  clientName: string;
  /** Called with every token the provider saves, so logs and errors mask it. */
  onSecret: (secret: string) => void;
  /** The store key of these credentials. Default: the server's own (`credentialsKey`); a per-user caller's differs. */
  storeKey?: string;
}

/**
 * The SDK's `OAuthClientProvider` for one backend server, over an `OAuthStore` (docs/oauth.md): client identity in the
 * order the MCP authorization spec gives (a pre-registered `clientId` from the config, else the config's client ID
 * metadata document URL where the authorization server supports it, else dynamic registration, which the SDK's
 * `auth()` decides from what this returns), tokens and registrations per authorization server, PKCE verifier and
 * `state` per flow. The flow itself (`auth()` from `@modelcontextprotocol/client`) is the SDK's.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private readonly key: string;
  private credentials: StoredCredentials;
  private loaded = false;
  private verifier: string | undefined;
  private flowState: string | undefined;
  private authorizationUrl: URL | undefined;
  /** Where the authorization server sends the browser back: set by the flow before each `auth()`. */
  redirectTarget: string;
  /** The config's grant, client authentication and DPoP (docs/oauth.md, "Without a person"). */
  readonly grant: TokenGrant;
  /** `private_key_jwt` when the config has a `privateKey` (else the SDK authenticates with the secret, if any). */
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly options: StoredOAuthProviderSettings) {
    this.key = options.storeKey ?? credentialsKey(options.serverId, options.serverUrl);
    this.credentials = parseCredentials(undefined, options.serverUrl);
    this.redirectTarget = `http://127.0.0.1:${options.settings.redirectPort ?? 0}/callback`;
    this.grant = new TokenGrant(options.settings, options.onSecret);
    const clientAuthentication = this.grant.clientAuthenticationFor(options.settings.clientId);
    if (clientAuthentication) this.addClientAuthentication = clientAuthentication;
  }

  /** Reads the store again (another process may have logged in or out since). */
  async reload(): Promise<void> {
    this.credentials = parseCredentials(await this.options.store.get(this.key), this.options.serverUrl);
    this.loaded = true;
    for (const tokens of Object.values(this.credentials.tokens)) this.announce(tokens);
    // A dynamically registered confidential client's secret, read back after a restart, is masked too.
    for (const client of Object.values(this.credentials.clients)) {
      const secret = (client as { client_secret?: unknown }).client_secret;
      if (typeof secret === 'string') this.options.onSecret(secret);
    }
  }

  async ensureLoaded(): Promise<void> {
    if (!this.loaded) await this.reload();
  }

  /** The newest tokens, whoever issued them. */
  latestTokens(): SavedTokens | undefined {
    const issuer = this.credentials.latestIssuer;
    return issuer !== undefined ? this.credentials.tokens[issuer] : undefined;
  }

  /** Scope the server asked for that the stored tokens lack (see `StoredCredentials.wantedScope`). */
  get wantedScope(): string | undefined {
    return this.credentials.wantedScope;
  }

  async setWantedScope(scope: string | undefined): Promise<void> {
    if (scope === this.credentials.wantedScope) return;
    if (scope === undefined) delete this.credentials.wantedScope;
    else this.credentials.wantedScope = scope;
    await this.persist();
  }

  /** The authorization URL the last `auth()` built (a redirect is needed), taken once. */
  takeAuthorizationUrl(): URL | undefined {
    const url = this.authorizationUrl;
    this.authorizationUrl = undefined;
    return url;
  }

  /** The `state` of the last authorization URL. */
  get expectedState(): string | undefined {
    return this.flowState;
  }

  /** The issuer discovery found last (for the callback's `iss` and the status). */
  get discoveredIssuer(): string | undefined {
    const discovery = this.credentials.discovery;
    return discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
  }

  /**
   * A dynamically registered client names its redirect URIs: one that does not list where the browser will come back
   * now (another loopback port, the HTTP app's callback) is dropped so the SDK registers again.
   */
  async fitRegistrationTo(redirectUrl: string): Promise<void> {
    if (this.options.settings.clientId !== undefined) return;
    let changed = false;
    for (const [issuer, client] of Object.entries(this.credentials.clients)) {
      const uris = (client as { redirect_uris?: unknown }).redirect_uris;
      if (Array.isArray(uris) && !uris.includes(redirectUrl)) {
        delete this.credentials.clients[issuer];
        changed = true;
      }
    }
    if (changed) await this.persist();
  }

  /** The loopback port a stored registration was made with, to listen on it again (no new registration). */
  registeredLoopbackPort(): number | undefined {
    for (const client of Object.values(this.credentials.clients)) {
      const uris = (client as { redirect_uris?: unknown }).redirect_uris;
      if (!Array.isArray(uris)) continue;
      for (const uri of uris) {
        const match = typeof uri === 'string' ? /^http:\/\/127\.0\.0\.1:(\d+)\/callback$/.exec(uri) : null;
        if (match?.[1]) return Number(match[1]);
      }
    }
    return undefined;
  }

  /** Forgets tokens, registrations and discovery of this server (logout). */
  async forget(): Promise<void> {
    this.credentials = parseCredentials(undefined, this.options.serverUrl);
    this.verifier = undefined;
    this.flowState = undefined;
    await this.options.store.delete(this.key);
  }

  // ---- OAuthClientProvider ----

  get redirectUrl(): string | undefined {
    // None for a grant without a person: the SDK's `auth()` then asks the token endpoint directly.
    return this.grant.withoutPerson ? undefined : this.redirectTarget;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: this.options.clientName,
      redirect_uris: this.grant.withoutPerson ? [] : [this.redirectTarget],
      grant_types: this.grant.grantTypes,
      response_types: this.grant.withoutPerson ? [] : ['code'],
      token_endpoint_auth_method: this.grant.tokenEndpointAuthMethod,
      // A program on the user's machine with a loopback redirect is a native application (RFC 8252); a host that
      // receives the redirect on its own web address (`search-mcp-http`'s /oauth/callback) is a web one.
      application_type: isLoopbackRedirect(this.redirectTarget) ? 'native' : 'web',
    };
    if (settings.scopes !== undefined && settings.scopes.length > 0) metadata.scope = settings.scopes.join(' ');
    return metadata;
  }

  state(): string {
    this.flowState = randomBytes(24).toString('base64url');
    return this.flowState;
  }

  clientInformation(context?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const { clientId, clientSecret } = this.options.settings;
    if (clientId !== undefined) {
      return clientSecret !== undefined
        ? { client_id: clientId, client_secret: clientSecret }
        : { client_id: clientId };
    }
    if (context) return this.credentials.clients[context.issuer];
    const issuer = this.credentials.latestIssuer ?? this.discoveredIssuer;
    return issuer !== undefined ? this.credentials.clients[issuer] : undefined;
  }

  async saveClientInformation(
    information: StoredOAuthClientInformation,
    context?: OAuthClientInformationContext,
  ): Promise<void> {
    // A pre-registered client is the config's: nothing to keep.
    if (this.options.settings.clientId !== undefined) return;
    const issuer = context?.issuer ?? information.issuer ?? this.discoveredIssuer ?? '';
    this.credentials.clients[issuer] = information;
    const secret = (information as { client_secret?: unknown }).client_secret;
    if (typeof secret === 'string') this.options.onSecret(secret);
    await this.persist();
  }

  tokens(context?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    if (context) return this.credentials.tokens[context.issuer];
    return this.latestTokens();
  }

  async saveTokens(tokens: StoredOAuthTokens, context?: OAuthClientInformationContext): Promise<void> {
    const issuer = context?.issuer ?? tokens.issuer ?? this.discoveredIssuer ?? '';
    const saved: SavedTokens = { ...tokens, savedAt: Date.now() };
    // A refresh may answer without a new refresh token: the old one stays valid (RFC 6749 §6).
    const previous = this.credentials.tokens[issuer];
    if (saved.refresh_token === undefined && previous?.refresh_token !== undefined) {
      saved.refresh_token = previous.refresh_token;
    }
    this.credentials.tokens[issuer] = saved;
    this.credentials.latestIssuer = issuer;
    this.announce(saved);
    await this.persist();
  }

  prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    return this.grant.tokenRequest(scope);
  }

  /** The issuer discovery found (the SDK says so before the token request): an ID-JAG's audience. */
  saveAuthorizationServerUrl(issuer: string): void {
    this.grant.audience = issuer;
  }

  /** The resource the token is for (RFC 8707): an ID-JAG's resource. */
  saveResourceUrl(resource: string): void {
    this.grant.resource = resource;
  }

  dpop(): Promise<DpopSession> | undefined {
    return this.grant.dpop();
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // The flow opens it (the opener, the HTTP app's answer): `auth()` only builds it.
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: the authorization was not started here');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.credentials.discovery = state;
    await this.persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.credentials.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // Written only when something went: after a logout, nothing is stored for the server, and stays so.
    const before = JSON.stringify(this.credentials);
    if (scope === 'all' || scope === 'client') this.credentials.clients = {};
    if (scope === 'all' || scope === 'tokens') {
      this.credentials.tokens = {};
      delete this.credentials.latestIssuer;
    }
    if (scope === 'all' || scope === 'discovery') delete this.credentials.discovery;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (JSON.stringify(this.credentials) !== before) await this.persist();
  }

  private announce(tokens: StoredOAuthTokens): void {
    this.options.onSecret(tokens.access_token);
    if (tokens.refresh_token !== undefined) this.options.onSecret(tokens.refresh_token);
  }

  private async persist(): Promise<void> {
    const { clients, tokens, discovery, wantedScope } = this.credentials;
    const empty =
      Object.keys(clients).length === 0 &&
      Object.keys(tokens).length === 0 &&
      discovery === undefined &&
      wantedScope === undefined;
    // Nothing left to keep (after a logout): no entry at all, rather than an empty one.
    if (empty) await this.options.store.delete(this.key);
    else await this.options.store.set(this.key, JSON.stringify(this.credentials));
  }
}

function isLoopbackRedirect(redirectUrl: string): boolean {
  const { protocol, hostname } = new URL(redirectUrl);
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]');
}
