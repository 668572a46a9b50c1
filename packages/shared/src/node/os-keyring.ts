/**
 * Search MCP's secrets in the OS keyring (docs/trust.md, "Secrets in the OS keyring"): entries of the service
 * `search-mcp`, one per secret name, through `@napi-rs/keyring` (macOS Keychain, Windows Credential Manager; on
 * Linux the Secret Service over D-Bus, else the kernel keyring of the login session). `$SEARCH_MCP_KEYRING`
 * (`secret-service` or `keyutils`) requires one Linux store instead of letting the binding pick.
 */
import { createRequire } from 'node:module';
import type { Entry } from '@napi-rs/keyring';
import type { SecretResolver } from '../config/env-expansion.js';

type EntryConstructor = typeof Entry;
// Named `require` (`require2` once built) so that tests/packaging's reading of the built file sees the dependency.
const require = createRequire(import.meta.url);
let entryClass: EntryConstructor | undefined;

/**
 * The binding's `Entry`, loaded on first use: the native module costs ~25 ms to load, and most configs name no
 * secret, so every command would pay it for nothing (`search-mcp call` answers faster without it).
 */
function keyringEntry(): EntryConstructor {
  entryClass ??= (require('@napi-rs/keyring') as { Entry: EntryConstructor }).Entry;
  return entryClass;
}

export const KEYRING_SERVICE = 'search-mcp';
export const KEYRING_STORE_ENV_VARIABLE = 'SEARCH_MCP_KEYRING';

/** A secret's name is a variable's name, so that `${NAME}` from the environment is always its fallback. */
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The keyring cannot be reached at all (no Secret Service, the kernel keyring refused, an unknown store). */
export class KeyringUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`the OS keyring is not available (${reason})`);
    this.name = 'KeyringUnavailableError';
  }
}

type Environment = Record<string, string | undefined>;

/** The entry of one secret; throws `KeyringUnavailableError` when a required store is missing. */
function entryOf(name: string, env: Environment): Entry {
  const store = env[KEYRING_STORE_ENV_VARIABLE]?.trim();
  if (store !== undefined && store !== '' && store !== 'secret-service' && store !== 'keyutils') {
    throw new KeyringUnavailableError(`$${KEYRING_STORE_ENV_VARIABLE} is "${store}": use secret-service or keyutils`);
  }
  return keyringCall(() => {
    const KeyringEntry = keyringEntry();
    return store
      ? new KeyringEntry(KEYRING_SERVICE, name, { linux: { store } })
      : new KeyringEntry(KEYRING_SERVICE, name);
  });
}

/** Runs one keyring operation; the binding's errors (all about reaching the store) become `KeyringUnavailableError`. */
function keyringCall<Result>(operation: () => Result): Result {
  try {
    return operation();
  } catch (error) {
    throw new KeyringUnavailableError(error instanceof Error ? error.message : String(error));
  }
}

/** The secret's value; `undefined` when the keyring holds none of that name. */
export function readKeyringSecret(name: string, env: Environment = process.env): string | undefined {
  const entry = entryOf(name, env);
  return keyringCall(() => entry.getPassword()) ?? undefined;
}

export function writeKeyringSecret(name: string, value: string, env: Environment = process.env): void {
  const entry = entryOf(name, env);
  keyringCall(() => entry.setPassword(value));
}

/** `true` when a secret was deleted, `false` when there was none. */
export function deleteKeyringSecret(name: string, env: Environment = process.env): boolean {
  const entry = entryOf(name, env);
  return keyringCall(() => entry.deleteCredential());
}

/**
 * The resolver `loadConfig` gives `parseConfig` for `${keyring:NAME}`. The keyring is only touched when a config
 * names a secret; each name is read once per resolver (one config load).
 */
export function keyringSecretResolver(env: Environment = process.env): SecretResolver {
  const answers = new Map<string, ReturnType<SecretResolver>>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = lookUp(name, env);
      answers.set(name, answer);
    }
    return answer;
  };
}

function lookUp(name: string, env: Environment): ReturnType<SecretResolver> {
  try {
    const value = readKeyringSecret(name, env);
    if (value === undefined) return { problem: `the OS keyring has no secret ${name} (service "${KEYRING_SERVICE}")` };
    return { value };
  } catch (error) {
    if (error instanceof KeyringUnavailableError) return { problem: error.message };
    throw error;
  }
}
