/** The structural shape of a JSON-RPC 2.0 message (request, notification, result or error). */
export type JsonRpcMessageShape =
  | { jsonrpc: '2.0'; method: string; id?: string | number; params?: unknown }
  | { jsonrpc: '2.0'; id: string | number; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/**
 * Checks the shape of a JSON-RPC 2.0 message without a schema library. The SDK's zod schema costs more per message
 * than the rest of a forwarded call; the SDK's Protocol still validates each request's and result's own schema.
 */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessageShape {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const hasId = typeof message.id === 'string' || (typeof message.id === 'number' && Number.isFinite(message.id));
  if (typeof message.method === 'string') return message.id === undefined || hasId;
  if ('result' in message) {
    return hasId && typeof message.result === 'object' && message.result !== null && !Array.isArray(message.result);
  }
  // JSON-RPC 2.0 §5: an error reply to a request whose id could not be read (parse error, invalid request) has
  // `id: null`.
  if (!hasId && message.id !== null) return false;
  const error = message.error as Record<string, unknown> | undefined;
  return (
    typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string'
  );
}
