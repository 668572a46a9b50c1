import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { isRecord, JsonRpcErrorCode, type ToolCallResult } from '@search-mcp/shared';
import { TOOL_DISCOVERY, TOOL_EXECUTE } from '../meta-tool-definitions.js';
import type { RequestExtra } from '../request-extra-types.js';
import { withRequestSpan } from '../telemetry/request-span.js';
import { JsonRpcWireError } from '../wire-errors.js';
import { handleDirectCall, handleTaskCall } from './direct-call-handler.js';
import { handleToolDiscovery } from './discovery-handler.js';
import { handleToolExecute } from './execute-handler.js';
import type { HandlerContext } from './handler-context.js';

/** `tools/call` as received: only the shape routing needs. */
export interface CallToolRequestAsReceived {
  method: 'tools/call';
  params: { name?: unknown; arguments?: unknown; _meta?: unknown; task?: unknown; [key: string]: unknown };
}

/**
 * Checks only that `params` is an object: `name` and `arguments` are checked by the handler, with messages of our
 * own, and the SDK's schema would also constrain fields the backend defines. Not a zod object: every forwarded call
 * passes here, and zod copies the params on each parse.
 */
export const callToolRequestSchema: StandardSchemaV1<CallToolRequestAsReceived> = {
  '~standard': {
    version: 1,
    vendor: 'search-mcp',
    validate: (value) =>
      isRecord(value) && isRecord(value.params)
        ? { value: value as unknown as CallToolRequestAsReceived }
        : { issues: [{ message: `Invalid input: expected object, received ${kindOf(value)}`, path: ['params'] }] },
  },
};

/** The kind of the params received, worded as the spec schemas' messages for the other methods (zod's). */
function kindOf(request: unknown): string {
  const params = isRecord(request) ? request.params : undefined;
  if (params === null) return 'null';
  return Array.isArray(params) ? 'array' : typeof params;
}

/** Routes `tools/call`: the meta-tools in meta mode, any backend tool by key or listed name in both modes. */
export function createCallToolHandler(context: HandlerContext) {
  // Not `async`: it returns the handler's own promise (an async wrapper would add a promise and turns per call).
  return (request: CallToolRequestAsReceived, extra: RequestExtra): Promise<ToolCallResult> => {
    try {
      return route(context, request, extra);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** The handler of a `tools/call`; a bad request throws. */
function route(context: HandlerContext, request: CallToolRequestAsReceived, extra: RequestExtra) {
  const { name, arguments: rawArguments, _meta, task } = request.params;
  if (typeof name !== 'string' || name === '') {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      'Invalid tools/call params: "name" must be a non-empty string',
    );
  }
  if (rawArguments !== undefined && !isRecord(rawArguments)) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      'Invalid tools/call params: "arguments" must be an object',
    );
  }
  const meta = isRecord(_meta) ? _meta : undefined;
  const args = rawArguments ?? {};
  const caller = context.callerOf(meta, extra);
  // `params.task` is 2025's opt-in; 2026-07-28 has no such parameter (the tasks extension lets the server decide,
  // and never for a client that did not declare it), so a 2026 request's `task` is ignored: a `{ task }` answer
  // would be an invalid result to it.
  if (task !== undefined && extra.clientEra.tasksBy === 'call-param')
    return withRequestSpan(name, { 'search_mcp.event': 'tools/call' }, meta, extra, () =>
      handleTaskCall(context, name, args, caller, meta, task, extra),
    );
  if (context.mode === 'meta' && name === TOOL_DISCOVERY)
    return withRequestSpan(name, { 'search_mcp.event': TOOL_DISCOVERY }, meta, extra, () =>
      handleToolDiscovery(context, args, caller, extra),
    );
  if (context.mode === 'meta' && name === TOOL_EXECUTE) {
    const toolKey = typeof args.toolKey === 'string' ? { 'search_mcp.tool.key': args.toolKey } : {};
    return withRequestSpan(name, { 'search_mcp.event': TOOL_EXECUTE, ...toolKey }, meta, extra, () =>
      handleToolExecute(context, args, caller, meta, extra),
    );
  }
  return withRequestSpan(name, { 'search_mcp.event': 'tools/call' }, meta, extra, () =>
    handleDirectCall(context, name, args, caller, meta, extra),
  );
}
