/**
 * The `${keyring:NAME}` values `parseConfig` substituted into a config (docs/trust.md, "Secrets in the OS
 * keyring"). A keyring value is a secret wherever it lands (an argument, a URL path), not only where
 * `collectConfigSecrets` looks for credentials by name, so `parseConfig` remembers them here and
 * `collectConfigSecrets` hands them to the redactor. Kept beside the config rather than in it, so that printing
 * or comparing a config never shows them as a field of their own.
 */
import type { ResolvedConfig } from '../config/resolved-config.js';

const substitutedSecrets = new WeakMap<ResolvedConfig, readonly string[]>();

export function rememberSubstitutedSecrets(config: ResolvedConfig, values: readonly string[]): void {
  if (values.length > 0) substitutedSecrets.set(config, [...new Set(values)]);
}

export function substitutedSecretsOf(config: ResolvedConfig): readonly string[] {
  return substitutedSecrets.get(config) ?? [];
}
