import { isRecord, JsonRpcErrorCode, type ToolCallResult } from '@search-mcp/shared';
import { z } from 'zod';
import { TOOL_DISCOVERY, TOOL_EXECUTE } from '../meta-tool-definitions.js';
import type { RequestExtra } from '../search-mcp-server-options.js';
import { JsonRpcWireError } from '../wire-errors.js';
import { handleDirectCall, handleTaskCall } from './direct-call-handler.js';
import { handleToolDiscovery } from './discovery-handler.js';
import { handleToolExecute } from './execute-handler.js';
import type { HandlerContext } from './handler-context.js';

/**
 * `tools/call` as received: only the shape routing needs. The SDK's own schema would also constrain fields the
 * backend defines; `name` and `arguments` are checked here, with messages of our own.
 */
export const callToolRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({
    name: z.unknown().optional(),
    arguments: z.unknown().optional(),
    _meta: z.unknown().optional(),
    task: z.unknown().optional(),
  }),
});

/** Routes `tools/call`: the meta-tools in meta mode, any backend tool by key or listed name in both modes. */
export function createCallToolHandler(context: HandlerContext) {
  return async (request: z.infer<typeof callToolRequestSchema>, extra: RequestExtra): Promise<ToolCallResult> => {
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
    if (task !== undefined && extra.era === 'legacy')
      return handleTaskCall(context, name, args, caller, meta, task, extra);
    if (context.mode === 'meta' && name === TOOL_DISCOVERY) return handleToolDiscovery(context, args, caller, extra);
    if (context.mode === 'meta' && name === TOOL_EXECUTE) return handleToolExecute(context, args, caller, meta, extra);
    return handleDirectCall(context, name, args, caller, meta, extra);
  };
}
