/**
 * An MCP client that logs in the standard way (the 2.x client SDK's `OAuthClientProvider`, kept in memory): on 401 the
 * SDK reads the protected-resource metadata, registers, and sends the "browser" (fetch following redirects) to the
 * authorization server, which redirects to a loopback listener with the code.
 */
import {
  Client,
  type ClientCapabilities,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { startCallbackListener } from './oauth-test-client.js';

/** The loopback listener a login ends on (`startCallbackListener`): its redirect URI and the queries it got. */
export type CallbackListener = Awaited<ReturnType<typeof startCallbackListener>>;

/** The SDK's provider interface, in memory; "opening" the authorization URL follows it with fetch. */
export class InMemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  stored?: StoredOAuthTokens;
  verifier = '';
  discovery?: OAuthDiscoveryState;
  readonly authorizationUrls: URL[] = [];

  constructor(private readonly listener: CallbackListener) {}

  get redirectUrl() {
    return this.listener.redirectUri;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Search MCP OAuth test client',
      redirect_uris: [this.listener.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.client = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    const response = await fetch(url);
    await response.body?.cancel();
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/**
 * Connects to `mcpUrl` as the SDK does for a server that wants OAuth: the first connect fails with
 * `UnauthorizedError` after the login, `finishAuth` exchanges the code, the second connect carries the token.
 */
export async function connectWithLogin(
  mcpUrl: URL,
  listener: CallbackListener,
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; provider: InMemoryOAuthProvider }> {
  const provider = new InMemoryOAuthProvider(listener);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const refused = await new Client({ name: 'oauth-login', version: '1.0.0' }).connect(first).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected a login, got: ${String(refused)}`);
  const callback = listener.callbacks.at(-1);
  if (!callback?.get('code')) throw new Error(`the login did not come back with a code: ${callback?.toString()}`);
  await first.finishAuth(callback);
  const client = new Client({ name: 'oauth-login', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider };
}
