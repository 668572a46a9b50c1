import type { Caller } from '@search-mcp/catalog';
import { parseToolKey, type ToolCallResult } from '@search-mcp/shared';
import { callerFields, errorFields } from '../audit/request-audit.js';
import { forwardableMeta } from '../forwarding/forwardable-meta.js';
import { createProgressForwarder } from '../progress-forwarder.js';
import type { RequestExtra } from '../search-mcp-server-options.js';
import type { HandlerContext } from './handler-context.js';

export interface ToolCallRun {
  event: 'tool_execute' | 'tools/call';
  toolKey: string;
  args: Record<string, unknown>;
  caller: Caller;
  meta: Record<string, unknown> | undefined;
  extra: RequestExtra;
  /** Run as a task: resolve with the backend's `{ task }` (direct task-augmented `tools/call`). */
  task?: { ttl?: number };
}

/**
 * Runs one backend tool for `tool_execute` or a direct `tools/call`: visibility, validation and retries are the
 * catalog's; progress goes back to the client, cancellation and `_meta` (our own keys out) on to the backend, and
 * one audit record is written. The session is the call's origin: a backend's sampling/elicitation/roots request
 * during the call is routed to this client.
 * Failures are thrown for the caller to shape.
 */
export async function runToolCall(context: HandlerContext, run: ToolCallRun): Promise<ToolCallResult> {
  const { event, toolKey, caller, extra } = run;
  const started = performance.now();
  const progress = createProgressForwarder(run.meta, extra);
  const serverId = parseToolKey(toolKey)?.serverId;
  const target = { event, toolKey, ...(serverId ? { serverId } : {}), ...callerFields(caller) };
  try {
    const meta = forwardableMeta(run.meta);
    const result = await context.catalog.execute(toolKey, run.args, caller, {
      signal: extra.signal,
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
      ...(meta ? { meta } : {}),
      ...(context.session ? { origin: { session: context.session, extra } } : {}),
      ...(run.task ? { task: run.task } : {}),
    });
    if (serverId !== undefined) context.noteLinks?.(serverId, result);
    await progress.settle();
    context.audit({ ...target, outcome: result.isError ? 'tool_error' : 'ok' }, extra, started);
    return result;
  } catch (error) {
    context.audit(
      { ...target, outcome: extra.signal.aborted ? 'cancelled' : 'error', ...errorFields(error) },
      extra,
      started,
    );
    throw error;
  }
}
