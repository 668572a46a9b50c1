import { isRecord, type JsonRpcMessage, type McpRequestId } from '@search-mcp/shared';

/** JSON-RPC "Internal error": what a caller gets for a reply that could not be used. */
const internalError = -32603;

export interface NormalizedResponse {
  /** The reply to hand to the SDK: the backend's own, cleaned, or an error reply saying what was wrong with it. */
  message: JsonRpcMessage;
  /** Set when the reply was malformed and replaced by an error reply. */
  problem?: string;
}

/**
 * Makes every reply to one of our requests usable. The SDK drops a reply that does not match its strict schema
 * (`result: null`, an error without `message`, an extra top-level field) as an "unknown message", and the caller
 * then waits for the whole timeout. Here such a reply becomes an error reply for the same id that says what was
 * wrong, so the caller gets a clear error at once; unknown top-level fields of a good reply are dropped.
 *
 * Returns undefined for anything that is not a reply with a usable id (requests, notifications, garbage).
 */
export function normalizeResponse(value: unknown): NormalizedResponse | undefined {
  if (!isRecord(value) || 'method' in value) return undefined;
  const id = value.id;
  if (!isRequestId(id)) return undefined;
  if (!('result' in value) && !('error' in value) && value.jsonrpc === undefined) return undefined;

  const malformed = (problem: string): NormalizedResponse => ({
    message: {
      jsonrpc: '2.0',
      id,
      error: { code: internalError, message: `malformed response from the MCP server: ${problem}` },
    },
    problem,
  });
  if (value.jsonrpc !== '2.0') return malformed('`jsonrpc` is not "2.0"');
  if ('result' in value && 'error' in value) return malformed('it has both `result` and `error`');
  if ('result' in value) {
    const { result } = value;
    if (!isRecord(result)) return malformed(`\`result\` is ${describeType(result)} (expected an object)`);
    if (result._meta !== undefined && !isRecord(result._meta)) {
      return malformed(`\`result._meta\` is ${describeType(result._meta)} (expected an object)`);
    }
    // The common case, a clean reply, is passed on as it is: no copy of a large result.
    const clean = keyCount(value) === 3;
    return { message: (clean ? value : { jsonrpc: '2.0', id, result }) as unknown as JsonRpcMessage };
  }
  if (!('error' in value)) return malformed('it has neither `result` nor `error`');
  const { error } = value;
  if (!isRecord(error)) return malformed(`\`error\` is ${describeType(error)} (expected an object)`);
  const data = error.data !== undefined ? { data: error.data } : {};
  if (!Number.isInteger(error.code)) {
    const message = typeof error.message === 'string' ? `: ${error.message}` : '';
    return malformed(`\`error.code\` is ${describeType(error.code)} (expected an integer)${message}`);
  }
  const code = error.code as number;
  if (typeof error.message !== 'string') {
    // The backend's code still says what kind of failure it was; keep it and say what is missing.
    return {
      message: {
        jsonrpc: '2.0',
        id,
        error: { code, message: `malformed response from the MCP server: error ${code} without a message`, ...data },
      },
      problem: `error ${code} without a message`,
    };
  }
  return { message: { jsonrpc: '2.0', id, error: { code, message: error.message, ...data } } };
}

function keyCount(value: Record<string, unknown>): number {
  let count = 0;
  for (const _key in value) count += 1;
  return count;
}

function isRequestId(value: unknown): value is McpRequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
