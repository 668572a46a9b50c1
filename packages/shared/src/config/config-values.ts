/** Small value rules of the config parser: records copied safely, absolute paths, http(s) URLs. */

/**
 * A record without a prototype: keys from a config file (server ids, project names, variable and header names, tool
 * names) may be any string, and `constructor`, `toString` or `__proto__` must be ordinary keys, not inherited
 * members (packages/shared/README.md, "Configuration": a server called `constructor` works like any other).
 */
export function createRecord<Value>(): Record<string, Value> {
  return Object.create(null) as Record<string, Value>;
}

/** A prototype-free copy of `record` with each value transformed. */
export function mapRecord<Value, Result>(
  record: Record<string, Value>,
  transform: (key: string, value: Value) => Result,
): Record<string, Result> {
  const result = createRecord<Result>();
  // With no prototype there is no `__proto__` setter either: every key is assigned as an own property.
  for (const [key, value] of Object.entries(record)) result[key] = transform(key, value);
  return result;
}

export function isAbsolutePath(filePath: string): boolean {
  return filePath.startsWith('/') || filePath.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(filePath);
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Whether two JSON-like values are equal: objects by their own keys in any order (a config's records are compared
 * by content, and `{ "A": 1, "B": 2 }` is `{ "B": 2, "A": 1 }`), arrays element by element in order.
 */
export function sameJsonValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => sameJsonValue(item, right[index]));
  }
  const leftKeys = Object.keys(left).filter((key) => (left as Record<string, unknown>)[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => (right as Record<string, unknown>)[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      sameJsonValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}
