import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCResultResponse, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { sdkResponseDispatch } from './legacy-client-internals.js';

/**
 * After `client.connect(transport)`: every inbound message that fits the 1.x SDK's result-response schema goes
 * straight to the SDK's response dispatch, as the SDK's own classification would send it, only sooner (see
 * `isSpecJsonRpcResultResponse`). Error responses, requests, notifications and anything unusual keep the SDK's path.
 * `before` is the handler the transport had before `connect`: the SDK tells it of every message first, and so does
 * this. False when the SDK's connection is not as expected (nothing changed then).
 */
export function dispatchResponsesDirectly(
  client: Client,
  transport: Transport,
  before: Transport['onmessage'],
): boolean {
  const classify = transport.onmessage;
  const dispatch = sdkResponseDispatch(client);
  if (!classify || !dispatch) return false;
  transport.onmessage = (message, extra) => {
    if (!isSpecJsonRpcResultResponse(message)) {
      classify(message, extra);
      return;
    }
    before?.(message, extra);
    dispatch(message as JSONRPCResultResponse);
  };
  return true;
}

/**
 * Whether `message` is a result response as the 1.x SDK's own schema defines one (`JSONRPCResultResponseSchema`,
 * strict: `jsonrpc`, `id`, `result`, whose `_meta` may carry a progress token and a related task). The SDK would send
 * such a message to its response dispatch.
 *
 * Why not the SDK's guard: its connection classifies every inbound message with `isJSONRPCResultResponse` (a zod
 * parse of the whole message) before the dispatch, which parses it again twice, and the request's own result schema
 * once more. For a 2025 backend's answer to a forwarded call that first parse was the largest single cost of the
 * 1.x client in a fresh `serve` (bench/forwarding-overhead-bench.ts, profiled). This is the same rule in plain checks;
 * anything it does not accept takes the SDK's path unchanged.
 */
export function isSpecJsonRpcResultResponse(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  if (message.jsonrpc !== '2.0' || !isRequestId(message.id) || !isPlainObject(message.result)) return false;
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
  }
  const meta = message.result._meta;
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
