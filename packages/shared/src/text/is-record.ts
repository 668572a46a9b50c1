/** A non-null, non-array object: what JSON calls an object. The one record check every package uses. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
