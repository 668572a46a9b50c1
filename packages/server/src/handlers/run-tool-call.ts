import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { Caller, CatalogExecuteOptions } from '@search-mcp/catalog';
import { parseToolKey, type ToolCallResult, type ToolProgress } from '@search-mcp/shared';
import { callerFields, errorFields } from '../audit/request-audit.js';
import { forwardableMeta } from '../forwarding/forwardable-meta.js';
import { backendRetry, type InputBinding, openRequestState, passInputRequired } from '../input/backend-input-state.js';
import type { ParkedCall } from '../input/parked-call.js';
import { answerFromParked, resumeParked, startParked } from '../input/parked-round.js';
import { callIdentity } from '../input/request-state-codec.js';
import { createProgressForwarder } from '../progress-forwarder.js';
import type { RequestExtra } from '../request-extra-types.js';
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

/** How one backend call of a run is made: the call's own signal and progress sink, the retry answers. */
interface BackendCall {
  signal: AbortSignal;
  onProgress: ((progress: ToolProgress) => void) | undefined;
  parked?: ParkedCall;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * Runs one backend tool for `tool_execute` or a direct `tools/call`: visibility, validation and retries are the
 * catalog's; progress goes back to the client, cancellation and `_meta` (our own keys out) on to the backend, and
 * one audit record is written per backend call. The session is the call's origin: a backend's sampling/elicitation/
 * roots request during the call is routed to this client.
 *
 * Asking the client for input works in every pair of protocol eras (plan §4): a 2026-07-28 backend's
 * `input_required` goes back to the client with our signed `requestState` (the SDK's legacy shim asks a 2025 client
 * with real requests and re-enters here with the answers); a 2025 backend's push request during a 2026-07-28 client's
 * call is parked in the call, which answers `input_required` and is continued by the retry.
 * Failures are thrown for the caller to shape.
 */
export async function runToolCall(context: HandlerContext, run: ToolCallRun): Promise<ToolCallResult> {
  const { extra } = run;
  if (extra.requestState !== undefined) return resume(context, run, extra.requestState);
  // Without a state of ours, `inputResponses` answer no round we know of: the call runs as a first call without them
  // (SEP-2322: ignore what is not recognised), and a backend that needs input asks again.
  if (extra.era === 'modern' && context.session && !run.task) {
    // On the parked call's own signal, so it can outlive the request (a 2025 backend's push request waits in it).
    const progress = createProgressForwarder(run.meta, extra);
    const parked = startParked<ToolCallResult>(
      extra,
      (call) => callBackend(context, run, { signal: call.signal, onProgress: (p) => call.progress(p), parked: call }),
      progress.onProgress,
    );
    return answerFrom(context, run, parked, progress.settle);
  }
  const progress = createProgressForwarder(run.meta, extra);
  const result = await callBackend(context, run, { signal: extra.signal, onProgress: progress.onProgress });
  // Every forwarded call comes this way: nothing is awaited that need not be (a promise and a turn each).
  const settling = progress.settle();
  if (settling) await settling;
  return passBackendInput(result, run);
}

/** A retry: our `requestState` names the backend state to send back, or the parked call to continue. */
async function resume(context: HandlerContext, run: ToolCallRun, requestState: string): Promise<ToolCallResult> {
  const { extra } = run;
  const state = openRequestState(requestState, binding(run));
  if (state.kind === 'backend') {
    const retry = backendRetry(state, parseToolKey(run.toolKey)?.serverId ?? '', extra);
    const progress = createProgressForwarder(run.meta, extra);
    const result = await callBackend(context, run, { signal: extra.signal, onProgress: progress.onProgress, ...retry });
    await progress.settle();
    return passBackendInput(result, run);
  }
  const progress = createProgressForwarder(run.meta, extra);
  return answerFrom(context, run, resumeParked<ToolCallResult>(state, extra, progress.onProgress), progress.settle);
}

/** Waits for the parked call's result or its next questions, and answers the request with them. */
function answerFrom(
  context: HandlerContext,
  run: ToolCallRun,
  parked: ParkedCall,
  settle: () => Promise<void> | undefined,
): Promise<ToolCallResult> {
  return answerFromParked(parked, {
    binding: binding(run),
    settle,
    onDropped: (reason) =>
      context.logger.warn('a call waiting for the client to answer was dropped and cancelled', {
        toolKey: run.toolKey,
        reason,
      }),
    complete: (result) => passBackendInput(result, run),
  });
}

/** Which call a state of this run belongs to. */
function binding(run: ToolCallRun): InputBinding {
  // The call's digest (a SHA-256 of its arguments) is only needed when a round asks for input: not on every call.
  return {
    caller: run.caller,
    get call() {
      return callIdentity(run.toolKey, run.args);
    },
  };
}

/** A 2026-07-28 backend's `input_required`, with our state wrapping its own (see `input/backend-input-state.ts`). */
function passBackendInput(result: ToolCallResult, run: ToolCallRun): ToolCallResult {
  // Nearly every result is complete: nothing to bind or seal for it.
  if (!isInputRequiredResult(result)) return result;
  return passInputRequired(result, parseToolKey(run.toolKey)?.serverId ?? '', binding(run));
}

/** One call to the backend, audited. */
async function callBackend(context: HandlerContext, run: ToolCallRun, call: BackendCall): Promise<ToolCallResult> {
  const { event, toolKey, caller, extra } = run;
  const started = performance.now();
  const serverId = parseToolKey(toolKey)?.serverId;
  const target = { event, toolKey, ...(serverId ? { serverId } : {}), ...callerFields(caller) };
  try {
    const result = await context.catalog.execute(toolKey, run.args, caller, executeOptions(context, run, call));
    const asks = isInputRequiredResult(result);
    if (serverId !== undefined && !asks) context.noteLinks?.(serverId, result);
    context.audit(
      { ...target, outcome: asks ? 'input_required' : result.isError ? 'tool_error' : 'ok' },
      extra,
      started,
    );
    return result;
  } catch (error) {
    context.audit(
      { ...target, outcome: call.signal.aborted ? 'cancelled' : 'error', ...errorFields(error) },
      extra,
      started,
    );
    throw error;
  }
}

/** The catalog's options of one backend call: only what is set (one object, filled in place: every call builds it). */
function executeOptions(context: HandlerContext, run: ToolCallRun, call: BackendCall): CatalogExecuteOptions {
  const options: CatalogExecuteOptions = { signal: call.signal };
  if (call.onProgress) options.onProgress = call.onProgress;
  const meta = forwardableMeta(run.meta);
  if (meta) options.meta = meta;
  if (context.session) {
    options.origin = call.parked
      ? { session: context.session, extra: run.extra, parked: call.parked }
      : { session: context.session, extra: run.extra };
  }
  if (run.task) options.task = run.task;
  if (call.inputResponses) options.inputResponses = call.inputResponses;
  if (call.requestState !== undefined) options.requestState = call.requestState;
  return options;
}
