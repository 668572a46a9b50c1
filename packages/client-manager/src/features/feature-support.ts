import { BackendError, isRecord, type McpServerCapabilities } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../connection/backend-request-options.js';
import type { ServerConnection } from '../connection/server-connection.js';

/** One page of a list, as the backend sent it (entries unchanged, malformed ones left out). */
export type Page<K extends string, T> = { [P in K]: T[] } & { nextCursor?: string; _meta?: Record<string, unknown> };
/** A listed entry: every field as the backend sent it. */
export type Listed = Record<string, unknown>;

/** JSON-RPC "Method not found": what a backend lacking a capability would answer. */
export const methodNotFound = -32601;

/**
 * Whether a running server announced a capability. A server that is not running passes: the request then fails
 * with `ServerNotRunningError` (and a reconnect), as a tool call does.
 */
export function offers(connection: ServerConnection, capability: keyof McpServerCapabilities): boolean {
  const capabilities = connection.capabilities();
  return capabilities === undefined || capabilities[capability] !== undefined;
}

/** Fails like the backend would (`-32601`) when it does not offer what `method` needs. */
export function requireCapability(
  connection: ServerConnection,
  capability: keyof McpServerCapabilities,
  method: string,
): void {
  if (!offers(connection, capability)) throw notOffered(connection, method);
}

/** The error for a method the server does not offer, as a backend would answer it (`-32601`). */
export function notOffered(connection: ServerConnection, method: string): BackendError {
  return new BackendError({
    serverId: connection.id,
    backendCode: methodNotFound,
    message: `MCP server '${connection.id}' does not offer ${method}`,
  });
}

/**
 * One page of a list request. A server lacking the capability answers an empty page without a round trip.
 * Entries without their string key fields are dropped with a warning (the rest pass unchanged, unknown fields
 * included); a `nextCursor` that is not a string ends the list.
 */
export async function listPage<K extends string>(
  connection: ServerConnection,
  request: {
    method: string;
    key: K;
    capability: keyof McpServerCapabilities;
    /** Fields each entry must have as strings (`uri`, `name`). */
    required: readonly string[];
    cursor: string | undefined;
    options: BackendRequestOptions | undefined;
    onDropped: (count: number) => void;
  },
): Promise<Page<K, Listed>> {
  const { key } = request;
  if (!offers(connection, request.capability)) return { [key]: [] } as unknown as Page<K, Listed>;
  const params: Record<string, unknown> = request.cursor !== undefined ? { cursor: request.cursor } : {};
  const result = await connection.forward(request.method, params, request.options, {
    check: (answer) => (Array.isArray(answer[key]) ? undefined : `\`${key}\` is not an array`),
  });
  const entries = (result[key] as unknown[]).filter(
    (entry): entry is Listed => isRecord(entry) && request.required.every((field) => typeof entry[field] === 'string'),
  );
  const dropped = (result[key] as unknown[]).length - entries.length;
  if (dropped > 0) request.onDropped(dropped);
  const page: Record<string, unknown> = { [key]: entries };
  if (typeof result.nextCursor === 'string') page.nextCursor = result.nextCursor;
  if (isRecord(result._meta)) page._meta = result._meta;
  return page as Page<K, Listed>;
}
