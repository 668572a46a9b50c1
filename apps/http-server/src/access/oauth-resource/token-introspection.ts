import { fetchJson, isJsonObject } from './bounded-fetch.js';
import { invalidToken, shown, type TokenRefusal, unverifiable } from './token-refusal.js';

export interface IntrospectionOptions {
  issuer: string;
  clockToleranceSeconds: number;
  clientId: string;
  clientSecret: string;
  /** The introspection endpoint: configured, or the metadata's `introspection_endpoint` (may throw a TokenRefusal). */
  endpoint: () => Promise<string>;
  fetch: typeof fetch;
  timeoutMs: number;
}

/**
 * Opaque tokens, checked at the authorization server's introspection endpoint (RFC 7662) with HTTP Basic client
 * authentication. The answer must be `active`, name this issuer (when it names one) and this resource in `aud`, carry
 * a `sub` and not be expired; and, as for a JWT (jwt-access-token.ts), it must be an access token (a `token_type`, when
 * given, of `access_token` or `Bearer`) not bound to a key (no `cnf`). (The verifier caches positive answers:
 * VerifiedTokenCache.)
 */
export class TokenIntrospection {
  constructor(private readonly options: IntrospectionOptions) {}

  /** The answer's claims when the token is active and names one of `audiences`; throws a TokenRefusal. */
  async check(token: string, audiences: readonly string[]): Promise<Record<string, unknown>> {
    return this.checked(await this.introspect(token), audiences);
  }

  private async introspect(token: string): Promise<unknown> {
    const { clientId, clientSecret, timeoutMs } = this.options;
    const endpoint = await this.options.endpoint();
    // RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined and base64-encoded.
    const credentials = Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
    const answer = await fetchJson(
      this.options.fetch,
      endpoint,
      {
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: `Basic ${credentials}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      },
      timeoutMs,
    );
    if (answer.kind === 'unreachable')
      throw unverifiable(
        "the authorization server's introspection endpoint is unreachable",
        `introspection: ${answer.detail}`,
      );
    if (answer.kind === 'not-json' || answer.status !== 200)
      throw unverifiable(
        "the authorization server's introspection endpoint failed",
        `introspection: ${endpoint} answered ${answer.status}${answer.kind === 'not-json' ? ' with no JSON' : ''}`,
      );
    return answer.body;
  }

  private checked(body: unknown, audiences: readonly string[]): Record<string, unknown> {
    if (!isJsonObject(body) || typeof body.active !== 'boolean')
      throw unverifiable(
        "the authorization server's introspection answer is malformed",
        'introspection: the answer is not an object with a boolean `active`',
      );
    const { issuer, clockToleranceSeconds } = this.options;
    if (!body.active) throw invalidToken('the token is not active', 'introspection: active is false');
    if (body.iss !== undefined && body.iss !== issuer)
      throw invalidToken(
        'the token was issued by another authorization server',
        `introspection: issuer ${shown(body.iss)} is not ${issuer}`,
      );
    const named = typeof body.aud === 'string' ? [body.aud] : Array.isArray(body.aud) ? body.aud : [];
    if (named.length === 0) throw invalidToken('the token names no audience', 'introspection: aud is missing');
    if (!named.some((audience) => audiences.includes(audience as string)))
      throw invalidToken(
        'the token was issued for another resource',
        `introspection: audience ${shown(body.aud)} is not this resource (${audiences.join(', ')})`,
      );
    const now = Date.now() / 1000;
    if (typeof body.exp === 'number' && body.exp <= now - clockToleranceSeconds)
      throw timeRefusal('the token has expired', 'exp', body.exp, 'passed');
    if (typeof body.nbf === 'number' && body.nbf > now + clockToleranceSeconds)
      throw timeRefusal('the token is not valid yet', 'nbf', body.nbf, 'in the future');
    if (typeof body.sub !== 'string' || body.sub === '')
      throw invalidToken('the token has no subject', `introspection: sub is ${shown(body.sub)}`);
    // RFC 7662 §2.2 `token_type`: an active refresh token (or any other kind) is no access token, whatever it names.
    if (body.token_type !== undefined && !isAccessTokenType(body.token_type))
      throw invalidToken(
        'the token is not an access token',
        `introspection: token_type ${shown(body.token_type)} is not an access token type`,
      );
    // A sender-constrained token (RFC 9449 `cnf.jkt`, RFC 8705 `cnf.x5t#S256`) is worthless without its proof, which
    // a Bearer request does not carry: refused as on the JWT path.
    if (body.cnf !== undefined)
      throw invalidToken(
        'the token is bound to a key (DPoP or mTLS), which this server does not check',
        'introspection: cnf is present',
      );
    return body;
  }
}

/** `access_token` (RFC 8693's name) or `Bearer` (RFC 6750's token type), in any case. */
function isAccessTokenType(type: unknown): boolean {
  return typeof type === 'string' && ['access_token', 'bearer'].includes(type.toLowerCase());
}

function timeRefusal(description: string, claim: string, epochSeconds: number, state: string): TokenRefusal {
  return invalidToken(
    description,
    `introspection: ${claim} ${new Date(epochSeconds * 1000).toISOString()} is ${state}`,
  );
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}
