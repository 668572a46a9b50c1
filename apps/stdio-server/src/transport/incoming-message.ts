import { errorMessage, isRecord, JsonRpcErrorCode } from '@search-mcp/shared';
import { rawJsonMember } from './raw-json-member.js';

/** A request id as the client sent it: its value and its source text (echoed back exactly). */
export interface IncomingId {
  value: string | number;
  raw: string;
}

/**
 * One line from the client, classified by the rules of JSON-RPC 2.0 and MCP:
 * - `request`, `notification`, `response`: well-formed, normalized to the keys the SDK accepts;
 * - `invalid`: a request (or something that is no message at all) to answer with `code` and `message`, with the id
 *   as sent, or `null` when it could not be read;
 * - `malformed-response`: a response that is not well-formed; never answered (it is an answer itself), but the
 *   request it answers, if any, must fail at once;
 * - `ignored`: a blank line, or a notification that is not well-formed (notifications are never answered).
 */
export type IncomingMessage =
  | { kind: 'request'; id: IncomingId; method: string; params?: Record<string, unknown> }
  | { kind: 'notification'; method: string; params?: Record<string, unknown> }
  | {
      kind: 'response';
      id: string | number;
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    }
  | { kind: 'malformed-response'; id?: string | number; reason: string }
  | { kind: 'invalid'; code: number; message: string; rawId: string }
  | { kind: 'ignored'; reason: string };

const relatedTaskKey = 'io.modelcontextprotocol/related-task';

export function readIncomingLine(line: string): IncomingMessage {
  if (line.trim() === '') return { kind: 'ignored', reason: 'blank line' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return invalid(JsonRpcErrorCode.ParseError, `Parse error: ${errorMessage(error)}`);
  }
  if (Array.isArray(value)) {
    return invalid(
      JsonRpcErrorCode.InvalidRequest,
      'Invalid Request: batches are not supported; send one JSON-RPC message per line',
    );
  }
  if (!isRecord(value)) {
    return invalid(JsonRpcErrorCode.InvalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 message object');
  }

  const hasId = Object.hasOwn(value, 'id');
  const idValue = value.id;
  const id: IncomingId | undefined =
    typeof idValue === 'string' || typeof idValue === 'number'
      ? { value: idValue, raw: rawJsonMember(line, 'id') ?? JSON.stringify(idValue) }
      : undefined;
  const answer = (code: number, message: string) => invalid(code, message, id?.raw);

  if (Object.hasOwn(value, 'method')) {
    if (hasId && !id)
      return invalid(JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or a number');
    if (typeof value.method !== 'string')
      return answer(JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "method" must be a string');
    if (value.jsonrpc !== '2.0')
      return answer(JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"');
    const method = value.method;
    const problem = paramsProblem(value);
    if (problem) {
      if (!id) return { kind: 'ignored', reason: `notification ${method}: ${problem.message}` };
      return answer(
        problem.code,
        problem.code === JsonRpcErrorCode.InvalidParams
          ? `Invalid ${method} params: ${problem.message}`
          : `Invalid Request: ${problem.message}`,
      );
    }
    const params = value.params as Record<string, unknown> | undefined;
    if (!id) return { kind: 'notification', method, ...(params ? { params } : {}) };
    return { kind: 'request', id, method, ...(params ? { params } : {}) };
  }

  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) {
    const responseId = id?.value;
    const malformed = (reason: string): IncomingMessage => ({
      kind: 'malformed-response',
      ...(responseId !== undefined ? { id: responseId } : {}),
      reason,
    });
    if (value.jsonrpc !== '2.0') return malformed('"jsonrpc" must be "2.0"');
    if (responseId === undefined) return malformed('a response needs a string or number "id"');
    if (Object.hasOwn(value, 'result')) {
      if (!isRecord(value.result)) return malformed('"result" must be an object');
      const problem = value.result._meta === undefined ? undefined : metaProblem(value.result._meta, true);
      if (problem) return malformed(`"result.${problem}`.replace(':', '":'));
      return { kind: 'response', id: responseId, result: value.result };
    }
    const error = value.error;
    if (!isRecord(error)) return malformed('"error" must be an object');
    if (!Number.isInteger(error.code)) return malformed('"error.code" must be an integer');
    if (typeof error.message !== 'string') return malformed('"error.message" must be a string');
    return {
      kind: 'response',
      id: responseId,
      error: {
        code: error.code as number,
        message: error.message,
        ...(error.data !== undefined ? { data: error.data } : {}),
      },
    };
  }

  if (hasId && !id)
    return invalid(JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or a number');
  return answer(
    JsonRpcErrorCode.InvalidRequest,
    'Invalid Request: expected "method" (a request or notification) or "result"/"error" (a response)',
  );
}

function invalid(code: number, message: string, rawId = 'null'): IncomingMessage {
  return { kind: 'invalid', code, message, rawId };
}

/** What is wrong with `params` as JSON-RPC (-32600) or MCP (-32602) requires it, if anything. */
function paramsProblem(message: Record<string, unknown>): { code: number; message: string } | undefined {
  if (!Object.hasOwn(message, 'params')) return undefined;
  const { params } = message;
  if (!isRecord(params)) return { code: JsonRpcErrorCode.InvalidRequest, message: '"params" must be an object' };
  if (params._meta === undefined) return undefined;
  const problem = metaProblem(params._meta);
  return problem ? { code: JsonRpcErrorCode.InvalidParams, message: problem } : undefined;
}

/**
 * `_meta` as MCP defines it: an object; `progressToken` a string or number; a related task names its `taskId`. A
 * request's number token may be any number (the transport maps it to one the SDK accepts); elsewhere the SDK needs an
 * integer.
 */
function metaProblem(meta: unknown, integerToken = false): string | undefined {
  if (!isRecord(meta)) return '_meta: must be an object';
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number')
    return '_meta.progressToken: must be a string or a number';
  if (integerToken && typeof token === 'number' && !Number.isSafeInteger(token))
    return '_meta.progressToken: must be a string or an integer';
  const task = meta[relatedTaskKey];
  if (task !== undefined && !(isRecord(task) && typeof task.taskId === 'string'))
    return `_meta.${relatedTaskKey}: must be an object with a string taskId`;
  return undefined;
}
