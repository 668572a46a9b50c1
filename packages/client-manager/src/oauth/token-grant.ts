import type { AddClientAuthentication, DpopSession } from '@modelcontextprotocol/client';
import type { RemoteOAuthSettings } from '@search-mcp/shared';
import { oauthSdk } from './oauth-sdk.js';

const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * How a server's tokens are obtained beyond the authorization-code login (docs/oauth.md, "Without a person"): the
 * grant's token request, the client's private-key JWT authentication, and the DPoP key. Each is the SDK's own piece
 * (`createPrivateKeyJwtAuth`, `DpopSession`); this only turns the config into them.
 */
export class TokenGrant {
  private dpopSession: Promise<DpopSession> | undefined;
  private clientAuthentication: Promise<AddClientAuthentication> | undefined;
  /** The authorization server's issuer and the resource, as the SDK's `auth()` found them (enterprise-managed). */
  audience: string | undefined;
  resource: string | undefined;

  constructor(
    private readonly settings: RemoteOAuthSettings,
    /** Masks a credential obtained at run time (an ID-JAG) like the configured ones. */
    private readonly onSecret: (secret: string) => void = () => {},
  ) {}

  /** No person takes part: `client_credentials` or `jwt-bearer` (no browser, no redirect, no refresh token needed). */
  get withoutPerson(): boolean {
    const { grant } = this.settings;
    return grant === 'client_credentials' || grant === 'jwt-bearer' || grant === 'enterprise-managed';
  }

  /** The OAuth grant types the client registers or is registered for. */
  get grantTypes(): string[] {
    if (this.settings.grant === 'client_credentials') return ['client_credentials'];
    if (this.settings.grant === 'jwt-bearer' || this.settings.grant === 'enterprise-managed')
      return [jwtBearerGrantType];
    return ['authorization_code', 'refresh_token'];
  }

  /** The token endpoint authentication the config gives (a private key signs a JWT; else a secret, else none). */
  get tokenEndpointAuthMethod(): string {
    if (this.settings.privateKey !== undefined) return 'private_key_jwt';
    return this.settings.clientSecret !== undefined ? 'client_secret_basic' : 'none';
  }

  /** The token request of a grant without a person; undefined for the authorization code (the SDK builds that one). */
  async tokenRequest(scope: string | undefined): Promise<URLSearchParams | undefined> {
    let params: URLSearchParams;
    if (this.settings.grant === 'client_credentials') {
      params = new URLSearchParams({ grant_type: 'client_credentials' });
    } else if (this.settings.grant === 'jwt-bearer' && this.settings.assertion !== undefined) {
      params = new URLSearchParams({ grant_type: jwtBearerGrantType, assertion: this.settings.assertion });
    } else if (this.settings.grant === 'enterprise-managed') {
      params = new URLSearchParams({ grant_type: jwtBearerGrantType, assertion: await this.identityAssertion(scope) });
    } else {
      return undefined;
    }
    if (scope) params.set('scope', scope);
    return params;
  }

  /**
   * `private_key_jwt` (RFC 7523 §2.2) when the config has a `privateKey`: a fresh JWT signed for each token request,
   * issued by and about the `clientId`, for the authorization server's issuer (the SDK's default audience).
   */
  clientAuthenticationFor(clientId: string | undefined): AddClientAuthentication | undefined {
    const { privateKey, signingAlgorithm } = this.settings;
    if (privateKey === undefined || clientId === undefined) return undefined;
    return async (headers, params, url, metadata) => {
      this.clientAuthentication ??= oauthSdk.load().then(({ createPrivateKeyJwtAuth }) =>
        createPrivateKeyJwtAuth({
          issuer: clientId,
          subject: clientId,
          privateKey: readPrivateKey(privateKey),
          alg: signingAlgorithm ?? 'RS256',
        }),
      );
      const authenticate = await this.clientAuthentication;
      await authenticate(headers, params, url, metadata);
    };
  }

  /**
   * Enterprise-managed authorization: the identity provider exchanges the configured ID token for an ID-JAG (RFC 8693)
   * whose audience is the authorization server's issuer and whose resource is this server, with the SDK's
   * `requestJwtAuthorizationGrant` (or `discoverAndRequestJwtAuthGrant` from the provider's issuer). A new one for
   * each token request: an ID-JAG is short-lived and used once.
   */
  private async identityAssertion(scope: string | undefined): Promise<string> {
    const provider = this.settings.identityProvider;
    if (!provider || this.audience === undefined || this.resource === undefined) {
      throw new Error('enterprise-managed authorization needs the identity provider, the issuer and the resource');
    }
    const { requestJwtAuthorizationGrant, discoverAndRequestJwtAuthGrant } = await oauthSdk.load();
    const request = {
      audience: this.audience,
      resource: this.resource,
      idToken: provider.idToken,
      clientId: provider.clientId,
      ...(provider.clientSecret !== undefined ? { clientSecret: provider.clientSecret } : {}),
      ...(scope ? { scope } : {}),
    };
    const result =
      provider.tokenEndpoint !== undefined
        ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: provider.tokenEndpoint })
        : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: provider.issuer ?? '' });
    this.onSecret(result.jwtAuthGrant);
    return result.jwtAuthGrant;
  }

  /** The DPoP key of this server (`dpop: true`), one for the life of the process; undefined without DPoP. */
  dpop(): Promise<DpopSession> | undefined {
    if (this.settings.dpop !== true) return undefined;
    this.dpopSession ??= oauthSdk.load().then(({ DpopSession }) => DpopSession.create());
    return this.dpopSession;
  }
}

/**
 * A JWK given as JSON parsed, a PEM as it is (the SDK takes either); a PEM kept on one line in an environment variable
 * may carry its line breaks as `\n`.
 */
function readPrivateKey(text: string): string | Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as Record<string, unknown>;
  return trimmed.replaceAll('\\n', '\n');
}
