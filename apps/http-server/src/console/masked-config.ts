import type { ResolvedConfig, SecretRedactor } from '@search-mcp/shared';

/** What the console shows in place of a secret (docs/console.md, `GET /v1/config`). */
export const maskedValue = '••••';

/** Objects whose every value may be a secret: a stdio server's environment, a remote server's headers. */
const maskedMaps = new Set(['env', 'headers']);
/** Keys whose string values are secrets wherever they appear (auth tokens, OAuth client secrets, API keys…). */
const secretKey =
  /^(token|accessToken|refreshToken|idToken|clientSecret|secret|password|apiKey|api_key|privateKey|assertion|authorization|bearerToken)$|(Secret|Password|ApiKey|Token)$/;

/**
 * The resolved config with every secret replaced by `••••`, built key by key (env and header values, tokens, client
 * secrets, API keys), then passed through the app's redactor too, for a secret that sits where no key names it (a
 * token in a URL or an argument: packages/shared/README.md, "Secrets").
 */
export function maskedConfig(config: ResolvedConfig, redactor: SecretRedactor): unknown {
  return redactor.redactDeep(mask(config, undefined));
}

function mask(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => mask(item, undefined));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (key !== undefined && maskedMaps.has(key)) {
      return Object.fromEntries(entries.map(([name]) => [name, maskedValue]));
    }
    return Object.fromEntries(entries.map(([name, item]) => [name, mask(item, name)]));
  }
  if (typeof value === 'string' && key !== undefined && secretKey.test(key)) return maskedValue;
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return undefined;
  return value;
}
