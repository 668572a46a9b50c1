import type { Caller } from '@search-mcp/catalog';
import type { ToolCallResult } from '@search-mcp/shared';
import type { RequestExtra } from '../search-mcp-server-options.js';
import { toJsonRpcError } from '../wire-errors.js';
import type { HandlerContext } from './handler-context.js';
import { runToolCall } from './run-tool-call.js';

/**
 * A direct `tools/call` of a backend tool, by tool key (`server:tool`, `server.tool`, `server__tool`) or listed name,
 * in both modes. Failures are JSON-RPC errors (unknown tool -32602, server down or failing -32000, timeout -32001).
 */
export async function handleDirectCall(
  context: HandlerContext,
  name: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  try {
    // Inside the try: a refused caller fails here already, and must get its error's code, not -32603.
    const { names } = await context.exposure(caller);
    const toolKey = names.keyOf(name) ?? name;
    return await runToolCall(context, { event: 'tools/call', toolKey, args, caller, meta, extra });
  } catch (error) {
    throw toJsonRpcError(error, name);
  }
}
