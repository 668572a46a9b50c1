import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { Caller, CatalogExecuteOptions } from '@search-mcp/catalog';
import { parseToolKey, type ToolCallResult, type ToolProgress } from '@search-mcp/shared';
import { callerFields, errorFields } from '../audit/request-audit.js';
import { forwardableMeta } from '../forwarding/forwardable-meta.js';
import { passInputRequired } from '../input/backend-input-state.js';
import { answerRound, openRoundState, roundBinding } from '../input/input-round.js';
import type { ParkedCall } from '../input/parked-call.js';
import type { RequestStatePayload } from '../input/request-state-codec.js';
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
  /** The call's timeout when not the server's `timeoutMs`: what a wait for the server left of it. */
  timeoutMs?: number;
}

/** How one backend call of a run is made: the call's own signal and progress sink, the retry answers. */
interface BackendCall {
  signal: AbortSignal;
  onProgress: ((progress: ToolProgress) => void) | undefined;
  parked?: ParkedCall<unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * Runs one backend tool for `tool_execute` or a direct `tools/call`: visibility, validation and retries are the
 * catalog's; progress goes back to the client, cancellation and `_meta` (our own keys out) on to the backend, and
 * one audit record is written per backend call. The session is the call's origin: a backend's sampling/elicitation/
 * roots request during the call is routed to this client.
 *
 * Asking the client for input works in every pair of protocol eras, as for prompts and reads (`input/input-round.ts`):
 * a 2026-07-28 backend's `input_required` goes back to the client with our signed `requestState`; a 2025 backend's
 * push request during a 2026-07-28 client's call is parked in the call, which answers `input_required` and is
 * continued by the retry. Without a state of ours, `inputResponses` answer no round we know of: the call runs as a
 * first call without them (SEP-2322: ignore what is not recognised), and a backend that needs input asks again.
 * Failures are thrown for the caller to shape.
 */
export function runToolCall(context: HandlerContext, run: ToolCallRun): Promise<ToolCallResult> {
  const { extra } = run;
  // A task's call answers with the task at once: nothing to park.
  const parks = extra.clientEra.asksClientBy === 'park' && context.session !== undefined && !run.task;
  if (extra.requestState === undefined && !parks) return callOnce(context, run);
  const binding = roundBinding(run.caller, run.toolKey, run.args);
  let state: RequestStatePayload | undefined;
  try {
    state = openRoundState(context.inputs, extra, binding);
  } catch (error) {
    return Promise.reject(error);
  }
  // Not an async function: every forwarded call comes this way, and a layer of promise less is a turn less.
  return answerRound<ToolCallResult>({
    inputs: context.inputs,
    extra,
    binding,
    state,
    // Read only when a round asks for input: a plain call (nearly all) does not parse its key again.
    get serverId() {
      return parseToolKey(run.toolKey)?.serverId ?? '';
    },
    parks,
    progress: createProgressForwarder(run.meta, extra),
    send: (attempt) =>
      callBackend(
        context,
        run,
        // A plain attempt (signal and progress) is already a backend call: no copy on every forwarded call.
        attempt.parked || attempt.retry
          ? {
              signal: attempt.signal,
              onProgress: attempt.onProgress,
              ...(attempt.parked ? { parked: attempt.parked } : {}),
              ...attempt.retry,
            }
          : attempt,
      ),
    onDropped: (reason) =>
      context.logger.warn('a call waiting for the client to answer was dropped and cancelled', {
        toolKey: run.toolKey,
        reason,
      }),
  });
}

/**
 * A call that is no round of ours (no retry, nothing to park: nearly every forwarded call): the backend call alone,
 * with no round built for it. Only a 2026-07-28 backend's `input_required` answer is bound and sealed, as a round's
 * first answer is (`input/backend-input-state.ts`). Promise reactions rather than async functions, here and in
 * `callBackend`: each async layer returning a promise costs a promise and turns more on every forwarded call.
 */
function callOnce(context: HandlerContext, run: ToolCallRun): Promise<ToolCallResult> {
  const progress = createProgressForwarder(run.meta, run.extra);
  return callBackend(context, run, { signal: run.extra.signal, onProgress: progress.onProgress }).then((result) => {
    // Nothing is awaited that need not be (a promise and a turn each).
    const settling = progress.settle();
    return settling ? settling.then(() => boundAnswer(context, run, result)) : boundAnswer(context, run, result);
  });
}

/** The result as the client gets it: a backend's `input_required` bound and sealed, anything else as it is. */
function boundAnswer(context: HandlerContext, run: ToolCallRun, result: ToolCallResult): ToolCallResult {
  if (!isInputRequiredResult(result)) return result;
  const serverId = parseToolKey(run.toolKey)?.serverId ?? '';
  return passInputRequired(context.inputs, result, serverId, roundBinding(run.caller, run.toolKey, run.args));
}

/** One call to the backend, audited. */
function callBackend(context: HandlerContext, run: ToolCallRun, call: BackendCall): Promise<ToolCallResult> {
  const started = performance.now();
  let running: Promise<ToolCallResult>;
  try {
    running = context.catalog.execute(run.toolKey, run.args, run.caller, executeOptions(context, run, call));
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.then(
    (result) => {
      const serverId = parseToolKey(run.toolKey)?.serverId;
      const asks = isInputRequiredResult(result);
      if (serverId !== undefined && !asks) context.noteLinks?.(serverId, result);
      context.audit(
        { ...auditTarget(run, serverId), outcome: asks ? 'input_required' : result.isError ? 'tool_error' : 'ok' },
        run.extra,
        started,
      );
      return result;
    },
    (error: unknown) => {
      const serverId = parseToolKey(run.toolKey)?.serverId;
      context.audit(
        {
          ...auditTarget(run, serverId),
          outcome: call.signal.aborted ? 'cancelled' : 'error',
          ...errorFields(error),
        },
        run.extra,
        started,
      );
      throw error;
    },
  );
}

/** What an audit record of one backend call names: the event, the tool, its server and the caller. */
function auditTarget(run: ToolCallRun, serverId: string | undefined) {
  return { event: run.event, toolKey: run.toolKey, ...(serverId ? { serverId } : {}), ...callerFields(run.caller) };
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
  if (run.timeoutMs !== undefined) options.timeoutMs = run.timeoutMs;
  if (call.inputResponses) options.inputResponses = call.inputResponses;
  if (call.requestState !== undefined) options.requestState = call.requestState;
  return options;
}
