import { createSecretRedactor, type SecretRedactor } from './secret-redactor.js';

/** A secret redactor that can learn more secrets later (those of a reloaded config). */
export interface SecretCollector {
  add(secrets: Iterable<string>): void;
}

/** A redactor that also learns secrets later (those of a reloaded config). */
export type GrowingSecretRedactor = SecretRedactor & SecretCollector;

/**
 * A `SecretRedactor` for hosts that reload their config: hand it to every printer once, and `add` the secrets of
 * each new config before its servers start, so a server added by a reload has its secrets masked from its first
 * line. Secrets are never forgotten: an old value may still turn up in a message after the config dropped it.
 */
export function createGrowingSecretRedactor(secrets: Iterable<string>): GrowingSecretRedactor {
  const known = new Set<string>(secrets);
  let current = createSecretRedactor(known);
  return {
    redact: (text) => current.redact(text),
    redactDeep: (value) => current.redactDeep(value),
    add(more) {
      const before = known.size;
      for (const secret of more) known.add(secret);
      // One regular expression for all secrets, rebuilt only when a secret is new.
      if (known.size !== before) current = createSecretRedactor(known);
    },
  };
}
