import type { Caller } from '@search-mcp/catalog';

/**
 * Who a request is from when no resolver of the caller is configured: the `projectId` its `_meta` names, else the
 * connection's project (`projectId`), else nobody in particular. One rule for every path that reads a request's
 * caller (the meta-tools server's handlers, the stdio listen adapter), so a stream and a call agree on the caller.
 */
export function callerFromMeta(meta: Record<string, unknown> | undefined, projectId: string | undefined): Caller {
  const named = typeof meta?.projectId === 'string' ? meta.projectId : projectId;
  return named !== undefined ? { projectId: named } : {};
}
