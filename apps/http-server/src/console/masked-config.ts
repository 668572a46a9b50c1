import type { ResolvedConfig, SecretRedactor } from '@search-mcp/shared';

/** What the console shows in place of a secret (docs/console.md, `GET /v1/config`). */
export const maskedValue = '••••';

/** Objects whose every value may be a secret: a stdio server's environment, a remote server's headers. */
const maskedMaps = new Set(['env', 'headers']);
/** Keys whose string values are secrets wherever they appear (auth tokens, OAuth client secrets, API keys…). */
const secretKey =
  /^(token|accessToken|refreshToken|idToken|clientSecret|secret|password|apiKey|api_key|privateKey|assertion|authorization|bearerToken)$|(Secret|Password|ApiKey|Token)$/;
/**
 * Argument names whose value is a credential (`--token=abc`, `--api-key abc`, `-e GITHUB_TOKEN=abc`): broad on
 * purpose, a masked harmless value costs readability, a shown secret costs a leak.
 */
const credentialName = /token|key|secret|pass|pw|auth|credential|api|session|signature|cookie|(^|[-_])pat($|[-_=])/i;

/**
 * The resolved config with every secret replaced by `••••`, built structurally (docs/console.md, `GET /v1/config`):
 * env and header values, tokens, client secrets and API keys by their key; in every string that is an http(s) URL
 * its user name, password and every query value; in `args` the value of a credential-named `name=value` and the
 * argument after a credential-named flag; whatever the length of the secret. The app's redactor runs over the
 * result too, for a secret that sits where no structure names it (packages/shared/README.md, "Secrets").
 */
export function maskedConfig(config: ResolvedConfig, redactor: SecretRedactor): unknown {
  return redactor.redactDeep(mask(config, undefined));
}

function mask(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) {
    const items = key === 'args' && value.every((item) => typeof item === 'string') ? maskArguments(value) : value;
    return items.map((item) => mask(item, undefined));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (key !== undefined && maskedMaps.has(key)) {
      return Object.fromEntries(entries.map(([name]) => [name, maskedValue]));
    }
    return Object.fromEntries(entries.map(([name, item]) => [name, mask(item, name)]));
  }
  if (typeof value === 'string') return key !== undefined && secretKey.test(key) ? maskedValue : maskUrl(value);
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return undefined;
  return value;
}

/** `--token=abc` → `--token=••••`, `--api-key abc` → `--api-key ••••`; other arguments stay readable. */
export function maskArguments(args: readonly string[]): string[] {
  return args.map((argument, index) => {
    const previous = index > 0 ? args[index - 1] : undefined;
    if (previous !== undefined && isCredentialFlag(previous)) return maskedValue;
    const assignment = /^(-{0,2}[A-Za-z_][A-Za-z0-9_.-]*=)(.*)$/s.exec(argument);
    if (assignment !== null) {
      const [, prefix = '', assigned = ''] = assignment;
      return credentialName.test(prefix) ? `${prefix}${maskedValue}` : `${prefix}${maskUrl(assigned)}`;
    }
    return argument;
  });
}

/** A flag without a value of its own (`--token`, not `--token=abc`) named like a credential. */
function isCredentialFlag(argument: string): boolean {
  return /^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(argument) && credentialName.test(argument);
}

/** An http(s) URL with its user name, password and every query value masked; any other string as it is. */
export function maskUrl(text: string): string {
  if (!/^https?:\/\//i.test(text.trim())) return text;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return text;
  }
  if (url.username === '' && url.password === '' && url.search === '') return text;
  // Built by hand: URL would percent-encode the mask character.
  const credentials =
    url.username !== '' || url.password !== '' ? `${maskedValue}${url.password !== '' ? `:${maskedValue}` : ''}@` : '';
  const query = [...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${maskedValue}`).join('&');
  return `${url.protocol}//${credentials}${url.host}${url.pathname}${query !== '' ? `?${query}` : ''}${url.hash}`;
}
