/**
 * Removes secrets from text before it reaches a log, an error message or a tool result. The exact keys in use are
 * replaced wherever they appear, and anything shaped like an OpenAI key too: an API error may quote a key (OpenAI
 * masks it, an OpenAI-compatible server may not).
 */
const keyShape = /\bsk-[A-Za-z0-9_*-]{8,}/g;

export const redactedMarker = '[redacted]';

export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let redacted = text;
  for (const secret of secrets) {
    // Very short "secrets" (a test key `x`) would shred ordinary words; they are not worth hiding either.
    if (secret && secret.length >= 4) redacted = redacted.split(secret).join(redactedMarker);
  }
  return redacted.replace(keyShape, redactedMarker);
}
