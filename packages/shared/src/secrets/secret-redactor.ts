/**
 * Masks configured secret values in anything about to be printed (packages/shared/README.md, "Secrets": secrets
 * never appear in logs, errors or audit records). One redactor is built from the config (`collectConfigSecrets`)
 * and handed to every printer, so no printer can forget a secret: loggers, stderr tails, error messages, HTTP
 * bodies, `--json` output.
 *
 * A backend may echo a secret in another spelling than the config holds, so each secret is also masked
 * URL-encoded (`%2F`, `+` for space) and JSON-escaped (`\"`, `\\`, `\/`, `\u00e9` as written by ASCII-only JSON
 * encoders). All spellings go into one regular expression, longest first, so a text is scanned once however many
 * secrets there are, and a secret that contains another is masked whole.
 */

export interface SecretRedactor {
  /** `text` with every occurrence of every secret (in every spelling) replaced by `***`. */
  redact(text: string): string;
  /**
   * Masks every string inside a JSON-like value (plain objects, arrays, errors' `message` and `stack`). Returns the
   * value itself when nothing needed masking, and otherwise copies only the objects and arrays on the way to a
   * changed string. Other objects (Map, Date, class instances) are returned as they are.
   */
  redactDeep<T>(value: T): T;
}

const MASK = '***';

/** A redactor that changes nothing: for hosts and tests without secrets. */
export const noSecrets: SecretRedactor = {
  redact: (text) => text,
  redactDeep: (value) => value,
};

export function createSecretRedactor(secrets: Iterable<string>): SecretRedactor {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    // An empty pattern would match between every two characters.
    if (typeof secret !== 'string' || secret === '') continue;
    for (const spelling of spellingsOf(secret)) spellings.add(spelling);
  }
  if (spellings.size === 0) return noSecrets;

  const alternatives = [...spellings].sort((left, right) => right.length - left.length).map(escapeRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'g');
  const redact = (text: string): string => {
    // `replace` with a global pattern scans once; the test-first avoids building a new string when nothing matches.
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, MASK);
  };
  const redactDeep = <T>(value: T): T => redactValue(value, redact, new Map()) as T;
  return { redact, redactDeep };
}

/** The ways a secret may be written by a program that echoes it back. */
function spellingsOf(secret: string): string[] {
  const spellings = [secret];
  const uriEncoded = encodeURIComponent(secret);
  spellings.push(uriEncoded, uriEncoded.replace(/%20/g, '+'), uriEncoded.replace(/%[0-9A-F]{2}/g, lowerCase));
  const jsonEscaped = JSON.stringify(secret).slice(1, -1);
  spellings.push(
    jsonEscaped,
    jsonEscaped.replace(/\//g, '\\/'),
    jsonEscaped.replace(
      /[\u007f-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
  return spellings;
}

function lowerCase(text: string): string {
  return text.toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function redactValue(value: unknown, redact: (text: string) => string, seen: Map<object, unknown>): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  // A cycle (or a shared object) resolves to what it became the first time; the original while still in progress.
  if (seen.has(value)) return seen.get(value);
  seen.set(value, value);

  let result: unknown = value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactValue(item, redact, seen);
      if (redacted !== item) {
        copy ??= [...value];
        copy[index] = redacted;
      }
    });
    result = copy ?? value;
  } else if (value instanceof Error) {
    result = redactError(value, redact, seen);
  } else if (isPlainObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const redacted = redactValue(item, redact, seen);
      if (redacted !== item) {
        copy ??= copyOwnProperties(value);
        copy[key] = redacted;
      }
    }
    result = copy ?? value;
  }
  seen.set(value, result);
  return result;
}

/**
 * An error whose message, stack or own fields held a secret becomes a copy with the same prototype and own
 * properties (so `SearchMcpError.isInstance` and its fields still hold), masked.
 */
function redactError(error: Error, redact: (text: string) => string, seen: Map<object, unknown>): Error {
  const descriptors = Object.getOwnPropertyDescriptors(error) as Record<PropertyKey, PropertyDescriptor>;
  let changed = false;
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as string];
    if (descriptor === undefined || !('value' in descriptor)) continue;
    const redacted = redactValue(descriptor.value, redact, seen);
    if (redacted !== descriptor.value) {
      descriptor.value = redacted;
      changed = true;
    }
  }
  if (!changed) return error;
  return Object.create(Object.getPrototypeOf(error), descriptors) as Error;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// Defined, not assigned: a key "__proto__" stays an own key instead of replacing the copy's prototype.
function copyOwnProperties(value: object): Record<string, unknown> {
  const copy = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: (value as Record<string, unknown>)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
