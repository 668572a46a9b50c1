/** Keys of request `_meta` that are Search MCP's own: the caller's token, project and progress token. */
const ownKeys = new Set(['token', 'projectId', 'progressToken']);

/**
 * The `_meta` of a client request as the backend gets it: everything (trace context such as `traceparent`, vendor
 * keys) except Search MCP's own keys. The progress token is the client manager's to set (it maps progress back to
 * the right client); token and project are for us. Undefined when nothing is left, so no empty `_meta` is sent.
 */
export function forwardableMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  let forwarded: Record<string, unknown> | undefined;
  for (const key in meta) {
    if (ownKeys.has(key) || !Object.hasOwn(meta, key)) continue;
    forwarded ??= {};
    forwarded[key] = meta[key];
  }
  return forwarded;
}
