import type { Caller } from '@search-mcp/catalog';
import { isRecord, JsonRpcErrorCode, parseToolKey, type ToolCallResult } from '@search-mcp/shared';
import { TOOL_DISCOVERY, TOOL_EXECUTE } from '../meta-tool-definitions.js';
import type { RequestExtra } from '../search-mcp-server-options.js';
import { taskOwner, withExposedIds } from '../tasks/task-handlers.js';
import { JsonRpcWireError, toJsonRpcError } from '../wire-errors.js';
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
    if (error instanceof JsonRpcWireError) throw error;
    throw toJsonRpcError(error, name);
  }
}

/**
 * A task-augmented direct `tools/call` (`params.task`): the backend creates the task and answers at once with it; the
 * client gets it under a task id of ours, owned by its token (else its session), for `tasks/get|result|cancel`. The
 * meta-tools run no tasks (they declare no `execution.taskSupport`): `-32601`.
 */
export async function handleTaskCall(
  context: HandlerContext,
  name: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  task: unknown,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  const { tasks, session } = context;
  if (!tasks || !session || (context.mode === 'meta' && (name === TOOL_DISCOVERY || name === TOOL_EXECUTE))) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.MethodNotFound,
      `Tool ${name} does not run as a task; call it without "task"`,
    );
  }
  if (!isRecord(task) || (task.ttl !== undefined && typeof task.ttl !== 'number')) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      'Invalid tools/call params: "task" must be { ttl?: number }',
    );
  }
  const ttl = typeof task.ttl === 'number' ? task.ttl : undefined;
  try {
    const { names } = await context.exposure(caller);
    const toolKey = names.keyOf(name) ?? name;
    const result = await runToolCall(context, {
      event: 'tools/call',
      toolKey,
      args,
      caller,
      meta,
      extra,
      task: ttl !== undefined ? { ttl } : {},
    });
    const created = result.task;
    const serverId = parseToolKey(toolKey)?.serverId;
    if (!isRecord(created) || typeof created.taskId !== 'string' || serverId === undefined) return result;
    const owner = taskOwner(session, caller);
    const entry = tasks.add(serverId, created.taskId, { owner, sessionKey: session.key }, ttl);
    return withExposedIds(result, entry) as ToolCallResult;
  } catch (error) {
    throw toJsonRpcError(error, name);
  }
}
