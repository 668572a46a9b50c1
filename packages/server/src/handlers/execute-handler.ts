import type { Caller } from '@search-mcp/catalog';
import { isRecord, type ToolCallResult } from '@search-mcp/shared';
import { callerFields } from '../audit/request-audit.js';
import { authorizationElicitation } from '../authorization-elicitation.js';
import { describeZodIssues, plainToolExecuteArguments, toolExecuteArguments } from '../meta-tool-arguments.js';
import type { RequestExtra } from '../request-extra-types.js';
import { JsonRpcWireError, metaToolProtocolError, toErrorResult } from '../wire-errors.js';
import { type CalledServerWait, waitForCalledServer } from './called-server-wait.js';
import type { HandlerContext } from './handler-context.js';
import { runToolCall } from './run-tool-call.js';

/**
 * `tool_execute`: runs the tool at `toolKey` and returns its result unchanged. Failures of Search MCP itself (bad
 * arguments, unknown key, blocked tool, server down) are `isError` results with one line a model can act on; a rate
 * limit is a JSON-RPC error with the retry time (`wire-errors.ts`). A
 * server still connecting is waited for (within its call timeout, `called-server-wait.ts`) rather than reported down.
 */
export function handleToolExecute(
  context: HandlerContext,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  // Not an async function: every forwarded call comes this way (see `runToolCall`); what throws still rejects.
  try {
    return executeTool(context, args, caller, meta, extra);
  } catch (error) {
    return Promise.reject(error);
  }
}

function executeTool(
  context: HandlerContext,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  const started = performance.now();
  const refuse = (message: string, toolKey?: string) => {
    context.audit(
      {
        event: 'tool_execute',
        outcome: 'error',
        errorCode: 'VALIDATION_ERROR',
        ...(toolKey ? { toolKey } : {}),
        ...callerFields(caller),
      },
      extra,
      started,
    );
    return toErrorResult(new Error(message));
  };
  // Some models send the tool's arguments as a JSON string: the key is checked first, then the string.
  const rawArguments = args.arguments;
  const shape = typeof rawArguments === 'string' ? { ...args, arguments: {} } : args;
  let checked = plainToolExecuteArguments(shape);
  if (!checked) {
    const parsed = toolExecuteArguments.safeParse(shape);
    if (!parsed.success) {
      return Promise.resolve(
        refuse(
          `Invalid tool_execute arguments: ${describeZodIssues(parsed.error, 'arguments')}. Pass toolKey (a string) and arguments (an object).`,
        ),
      );
    }
    checked = parsed.data;
  }
  const toolArguments = typeof rawArguments === 'string' ? parseJsonObject(rawArguments) : (checked.arguments ?? {});
  if (toolArguments === undefined) {
    return Promise.resolve(
      refuse(
        'Invalid tool_execute arguments: "arguments" must be an object (or a JSON object string).',
        checked.toolKey,
      ),
    );
  }
  const toolKey = checked.toolKey.trim();
  const call = (waited: CalledServerWait | undefined) =>
    runToolCall(context, {
      event: 'tool_execute',
      toolKey,
      args: toolArguments,
      caller,
      meta,
      extra,
      ...(waited ? { timeoutMs: waited.remainingMs } : {}),
    });
  const fail = (error: unknown): ToolCallResult => {
    // A bad retry (`requestState`) is a protocol error of the request, not a failure of the tool.
    if (extra.signal.aborted || error instanceof JsonRpcWireError) throw error;
    // The person must authorize a backend first: a client that can show them the URL gets it as an elicitation.
    const elicitation = authorizationElicitation(error, extra);
    if (elicitation) throw elicitation;
    // A rate limit is the client's to wait out: a JSON-RPC error with the retry time.
    const protocolError = metaToolProtocolError(error);
    if (protocolError) throw protocolError;
    return toErrorResult(error);
  };
  try {
    const starting = waitForCalledServer(context, toolKey, caller, meta, extra);
    return (starting ? starting.then(call) : call(undefined)).catch(fail);
  } catch (error) {
    return Promise.reject(error).catch(fail);
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
