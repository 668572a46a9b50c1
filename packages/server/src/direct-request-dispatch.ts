import { type JSONRPCRequest, RELATED_TASK_META_KEY, type Server, type Transport } from '@modelcontextprotocol/server';
import { sdkRequestDispatch } from './sdk-server-internals.js';

/**
 * After `server.connect(transport)`: every inbound request that fits the SDK's request schema goes straight to the
 * SDK's request dispatch, as the SDK's own classification would send it, only sooner (see `isSpecJsonRpcRequest`).
 * Responses, notifications and anything unusual keep the SDK's path. `before` is the handler the transport had
 * before `connect`: the SDK tells it of every message first, and so does this. False when the SDK's connection is
 * not as expected (nothing changed then).
 */
export function dispatchRequestsDirectly(
  server: Server,
  transport: Transport,
  before: Transport['onmessage'],
): boolean {
  const classify = transport.onmessage;
  const dispatch = sdkRequestDispatch(server);
  if (!classify || !dispatch) return false;
  transport.onmessage = (message, extra) => {
    if (!isSpecJsonRpcRequest(message)) {
      classify(message, extra);
      return;
    }
    before?.(message, extra);
    dispatch(message as JSONRPCRequest, extra);
  };
  return true;
}

/**
 * Whether `message` is a JSON-RPC request as the 2.x SDK's own schema defines one (`JSONRPCRequestSchema`, strict:
 * `jsonrpc`, `id`, `method`, optional `params` whose `_meta` may carry a progress token and a related task). Such a
 * message can be neither kind of response, so it goes straight to the request dispatch.
 *
 * Why not the SDK's guards: its connection classifies every inbound message by trying the result-response schema,
 * then the error-response schema, then the request schema, each a zod parse. For a request the first two fail, and a
 * failing zod parse builds its issues: about a third of the SDK's work per forwarded call (measured with
 * `bench/proxy-bench.ts --profile`). This is the same rule in plain checks; anything it does not accept takes the
 * SDK's path unchanged.
 */
export function isSpecJsonRpcRequest(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string' || !isRequestId(message.id)) return false;
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  }
  const { params } = message;
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  if (meta.progressToken !== undefined && !isRequestId(meta.progressToken)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  return related === undefined || (isPlainObject(related) && typeof related.taskId === 'string');
}

/** A string or a safe integer: the SDK's `RequestIdSchema` and `ProgressTokenSchema`. */
function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** What zod's `object` accepts: an object that is not an array (JSON never gives other kinds of object). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
