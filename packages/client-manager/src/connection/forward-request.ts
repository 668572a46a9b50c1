import type { BackendPeer } from './backend-peer.js';
import { BackendError, isInputRequiredResult, SearchMcpError, TimeoutError } from '@search-mcp/shared';
import { z } from 'zod';
import { badAnswerOf } from './bad-answer.js';
import { toBackendFailure } from './backend-error-mapping.js';
import type { BackendRequestOptions } from './backend-request-options.js';
import { CallTimer } from './call-timer.js';
import { RequestAbort } from './request-abort.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { inputRetryParams, mayAskForInput } from './input-retry.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ProtocolErrors } from './protocol-errors.js';

/** Results pass through as the backend sent them; the SDK's result schemas would strip unknown fields. */
const PassThroughResultSchema = z.looseObject({});

/** Longest delay `setTimeout` takes: the SDK's own timer is never the one that fires. */
const noSdkTimeout = 2 ** 31 - 1;

export interface ForwardedRequest {
  serverId: string;
  method: string;
  params: Record<string, unknown>;
  /** What is being done, for messages: `tools/call echo`, `resources/read file:///x`. */
  operation: string;
  /** The tool, prompt or uri, recorded with the in-flight request. */
  name?: string;
  options: BackendRequestOptions;
  /** Idle limit (restarted by progress, paused while the backend waits on the client). */
  timeoutMs: number;
  /** Limit in all, however much progress is reported or however long the client takes to answer. */
  maxTotalTimeoutMs: number;
  /** This server's requests in flight, when the request has an `origin`. */
  inFlight: InFlightRequests;
  /** Streamable HTTP backends: learns the request's id, so reverse requests on its stream find its origin. */
  originTracker?: OriginTracker;
  /**
   * What is wrong with a result's shape, or undefined. A malformed result becomes a `BackendError`. Not asked of an
   * `input_required` answer (the 2.x SDK checked that it carries `inputRequests` or `requestState`).
   */
  check?: (result: Record<string, unknown>) => string | undefined;
  /** A remote server's request that fails below MCP means a broken connection. */
  remote: boolean;
  /** Called with such a failure, so the connection is rebuilt. */
  onConnectionFailure: (error: unknown) => void;
  /** How the server process ended, for a connection that closed during the request. */
  connectionDetail: () => string | undefined;
  /** How the manager reads its SDKs' errors. */
  errors: ProtocolErrors;
}

/**
 * Sends one request as a raw request (so results pass through unchanged), with `_meta`, progress and cancellation,
 * and turns failures into the shared errors. Two limits: the idle limit `timeoutMs` (restarted by each progress
 * notification, paused while the backend waits on a reverse request) and `maxTotalTimeoutMs`, which starts with the
 * first progress or pause (a plain request pays for no second timer). Either aborts the request's signal, so the
 * backend gets `notifications/cancelled`. A 2026-07-28 backend's `input_required` answer (`tools/call`,
 * `prompts/get`, `resources/read`) resolves as it is (an `InputRequiredResult`); `options.inputResponses` and
 * `requestState` make the request its retry (`input-retry.ts`).
 */
export async function forwardRequest(client: BackendPeer, request: ForwardedRequest): Promise<Record<string, unknown>> {
  const { serverId, options, operation, timeoutMs, maxTotalTimeoutMs } = request;
  const callerSignal = options.signal;
  callerSignal?.throwIfAborted();
  const params = request.params;
  if (options.meta) params._meta = { ...options.meta };
  const retry = inputRetryParams(client, serverId, request.method, options);
  if (retry) Object.assign(params, retry);
  const asksForInput = mayAskForInput(client, request.method);
  const controller = new RequestAbort();
  const started = performance.now();
  let overall: NodeJS.Timeout | undefined;
  const startOverall = () => {
    overall ??= setTimeout(
      () => controller.abort(overallTimeout(serverId, operation, maxTotalTimeoutMs, idle.wasPaused)),
      Math.max(0, maxTotalTimeoutMs - (performance.now() - started)),
    );
  };
  // A reverse request may pause the idle timer indefinitely: from the first pause the overall limit keeps the bound.
  const idle = new CallTimer(
    timeoutMs,
    () => controller.abort(idleTimeout(serverId, operation, timeoutMs)),
    () => startOverall(),
  );
  const abortFromCaller = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', abortFromCaller, { once: true });
  const { origin, onProgress } = options;
  let done: (() => void) | undefined;
  if (origin) {
    done = request.inFlight.add(
      { origin, method: request.method, ...(request.name !== undefined ? { name: request.name } : {}) },
      idle,
    );
  }
  const tracker = origin ? request.originTracker : undefined;
  const token = tracker && origin ? tracker.begin(origin) : undefined;
  try {
    const pending = client.request({ method: request.method, params }, PassThroughResultSchema, {
      timeout: noSdkTimeout,
      signal: controller.signal,
      ...(asksForInput ? { allowInputRequired: true } : {}),
      ...(origin ? { origin } : {}),
      ...(onProgress
        ? {
            onprogress: (progress) => {
              idle.reset();
              startOverall();
              onProgress(progress);
            },
          }
        : {}),
    });
    // The transport sent the request synchronously inside `request`: the tracker has its id now.
    tracker?.sent();
    const result = await pending;
    const problem = isInputRequiredResult(result)
      ? asksForInput
        ? undefined
        : `\`resultType: "input_required"\` needs MCP 2026-07-28 (this connection speaks ${client.protocolVersion ?? 'an older revision'})`
      : request.check?.(result);
    if (problem !== undefined) {
      throw new BackendError({
        serverId,
        message: `MCP server '${serverId}' returned a malformed result for ${operation}: ${problem}`,
      });
    }
    return result;
  } catch (error) {
    // A bad answer fails this request only: the backend answered, so its connection works (restarting it would
    // take every tool, resource and prompt of the server away over one bad result).
    const bad = controller.signal.aborted ? undefined : badAnswerOf(error, request.errors);
    if (bad !== undefined) {
      throw new BackendError({
        serverId,
        message: `MCP server '${serverId}' returned a malformed result for ${operation}: ${bad}`,
        cause: error,
      });
    }
    // MCP errors, our own errors and the caller's cancellation say nothing about the connection.
    const belowMcp =
      error instanceof Error &&
      request.errors.wireErrorOf(error) === undefined &&
      !request.errors.isConnectionClosed(error) &&
      !SearchMcpError.isInstance(error);
    if (request.remote && belowMcp && !controller.signal.aborted) request.onConnectionFailure(error);
    throw toBackendFailure(error, {
      serverId,
      operation,
      timeoutMs,
      // Aborted by the caller or one of our limits: its reason is the error (the SDK would wrap it in an McpError).
      signal: controller.signal,
      connectionDetail: request.connectionDetail,
      errors: request.errors,
    });
  } finally {
    if (token) tracker?.forget(token);
    idle.stop();
    done?.();
    if (overall) clearTimeout(overall);
    callerSignal?.removeEventListener('abort', abortFromCaller);
  }
}

function idleTimeout(serverId: string, operation: string, timeoutMs: number): TimeoutError {
  return new TimeoutError({
    timeoutMs,
    message: `MCP server '${serverId}' did not answer ${operation} within ${timeoutMs} ms`,
  });
}

function overallTimeout(serverId: string, operation: string, maxTotalTimeoutMs: number, waited: boolean) {
  const why = waited ? 'while it waited on the client' : 'although it kept reporting progress';
  return new TimeoutError({
    timeoutMs: maxTotalTimeoutMs,
    message: `MCP server '${serverId}' did not finish ${operation} within ${maxTotalTimeoutMs} ms in all (maxTotalTimeoutMs), ${why}`,
  });
}
