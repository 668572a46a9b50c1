/**
 * Every secret value a resolved config holds (packages/shared/README.md, "Secrets"), for `createSecretRedactor`:
 * values of server `env` and `headers`, credentials inside URLs, credentials passed as arguments,
 * `auth.tokens[].token`, `auth.oauth.introspection.clientSecret`, the password in `cluster.redis.url`, and every API
 * key or token in the `search` section (`search.cloud.apiKey`, `search.llm.apiKey`, and whatever comes next), and
 * every `${keyring:NAME}` value substituted anywhere.
 *
 * When in doubt a value is collected: masking a harmless value (a path in `env`) costs a little readability, a
 * missed secret costs a leak.
 */
import type { ResolvedConfig } from '../config/resolved-config.js';
import { substitutedSecretsOf } from './substituted-secrets.js';

/** Shorter values are not masked: a one- to three-character value would mask parts of every word printed. */
const MINIMUM_SECRET_LENGTH = 4;

/**
 * Words that are never secrets but appear in the structure of every JSON line and log record we print (JSON
 * literals, our log levels). Masking them would break the output itself (`"level":"***"`), and a secret that
 * is one of these words is no secret.
 */
const STRUCTURAL_WORDS = new Set(['true', 'false', 'null', 'undefined', 'debug', 'info', 'warn', 'warning', 'error']);

/** Names of arguments, variables, query parameters and fields whose value is a credential. */
const CREDENTIAL_NAME =
  /token|secret|passw(or)?d|passwd|pwd|api[-_]?key|apikey|auth|credential|session|signature|sig$/i;

/** A URL path segment or query value that looks like a generated key: long, and letters mixed with digits. */
const TOKEN_LIKE = /^(?=.*[A-Za-z])(?=.*[0-9])[A-Za-z0-9._~+/=-]{20,}$/;

export function collectConfigSecrets(config: ResolvedConfig): string[] {
  const secrets = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value !== 'string') return;
    if (value.length < MINIMUM_SECRET_LENGTH || STRUCTURAL_WORDS.has(value.toLowerCase())) return;
    secrets.add(value);
  };

  for (const server of Object.values(config.mcpServers)) {
    if (server.transport === 'stdio') {
      for (const value of Object.values(server.env ?? {})) {
        add(value);
        addUrlCredentials(value, add);
      }
      addArgumentCredentials(server.args ?? [], add);
    } else {
      addUrlCredentials(server.url, add);
      for (const value of Object.values(server.headers ?? {})) addHeaderCredentials(value, add);
      if (server.oauth) {
        // What a grant without a person presents (docs/oauth.md): as secret as the client secret.
        add(server.oauth.clientSecret);
        add(server.oauth.privateKey);
        add(server.oauth.assertion);
        add(server.oauth.identityProvider?.clientSecret);
        add(server.oauth.identityProvider?.idToken);
      }
    }
  }
  for (const token of config.auth.tokens) add(token.token);
  add(config.auth.oauth?.introspection?.clientSecret);
  // `cluster.redis.url`'s password (`redis://:password@host`), as in a server's URL.
  if (config.cluster) addUrlCredentials(config.cluster.redis.url, add);
  addSearchCredentials(config.search, add);
  for (const value of substitutedSecretsOf(config)) add(value);
  return [...secrets];
}

/** `Bearer abc` is masked whole and as `abc`; `Basic dXNlcjpwYXNz` also as `user:pass` and `pass`. */
function addHeaderCredentials(value: string, add: (value: string) => void): void {
  add(value);
  const match = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s+(\S+)\s*$/.exec(value);
  if (match === null) return;
  const [, scheme = '', credentials = ''] = match;
  add(credentials);
  if (scheme.toLowerCase() !== 'basic') return;
  try {
    const decoded = atob(credentials);
    add(decoded);
    add(decoded.slice(decoded.indexOf(':') + 1));
  } catch {
    // Not base64: already masked as written.
  }
}

/** `user:password@`, query values named like credentials or looking like keys, and key-like path segments. */
function addUrlCredentials(text: string, add: (value: string) => void): void {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  for (const part of [url.username, url.password]) {
    add(part);
    add(safeDecode(part));
  }
  for (const [name, value] of url.searchParams) {
    if (CREDENTIAL_NAME.test(name) || TOKEN_LIKE.test(value)) add(value);
  }
  for (const segment of url.pathname.split('/')) {
    if (TOKEN_LIKE.test(segment)) {
      add(segment);
      add(safeDecode(segment));
    }
  }
}

/**
 * Credentials passed on the command line: `--token=abc`, `--api-key abc`, `-e GITHUB_TOKEN=abc` (docker), and
 * URLs with credentials. Other arguments (package names, paths, flags) are left readable.
 */
function addArgumentCredentials(args: readonly string[], add: (value: string) => void): void {
  args.forEach((argument, index) => {
    addUrlCredentials(argument, add);
    const assignment = /^-{0,2}([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$/s.exec(argument);
    if (assignment !== null) {
      const [, name = '', value = ''] = assignment;
      if (CREDENTIAL_NAME.test(name)) add(value);
      addUrlCredentials(value, add);
      return;
    }
    const next = args[index + 1];
    if (
      /^--?[A-Za-z]/.test(argument) &&
      CREDENTIAL_NAME.test(argument) &&
      next !== undefined &&
      !next.startsWith('-')
    ) {
      add(next);
    }
  });
}

/** Every credential-named string in the search section at any depth, and credentials in its URLs. */
function addSearchCredentials(value: unknown, add: (value: string) => void, name = ''): void {
  if (typeof value === 'string') {
    if (CREDENTIAL_NAME.test(name)) add(value);
    addUrlCredentials(value, add);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) addSearchCredentials(item, add, key);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
