import type { Caller } from '@search-mcp/catalog';
import type { InputRetry, ToolProgress } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../forwarding/backend-gateway.js';
import type { ProgressForwarder } from '../progress-forwarder.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientOrigin } from '../sessions/client-session.js';
import { backendRetry, type InputBinding, openRequestState, passInputRequired } from './backend-input-state.js';
import type { ParkedCall } from './parked-call.js';
import {
  answerFromParked,
  type ParkedAnswerSettings,
  type ParkedInputRequired,
  resumeParked,
  startParked,
} from './parked-round.js';
import type { PendingInputs } from './pending-inputs.js';
import { callIdentity, type RequestStatePayload } from './request-state-codec.js';

/** How one backend request of a round is made (a tool call, a `prompts/get`, a `resources/read`). */
export interface BackendAttempt {
  /** The front request's signal, or the parked call's own (it may outlive the front request). */
  signal: AbortSignal;
  /** Where the backend's progress goes, when the round forwards progress (tool calls). */
  onProgress: ((progress: ToolProgress) => void) | undefined;
  /** The call it runs in, for `origin.parked`: where a 2025 backend's push request during it waits for the retry. */
  parked?: ParkedCall<unknown>;
  /** A 2026-07-28 backend's retry: the client's answers and the backend's own state. */
  retry?: InputRetry;
}

/** One request that may ask the client for input, as its handler describes it. */
export interface InputRound<T extends object> {
  /** The runtime's registry of held calls, and the codec of our `requestState`. */
  inputs: PendingInputs;
  extra: RequestExtra;
  /** What our `requestState` is bound to (`roundBinding`). */
  binding: InputBinding;
  /** The retry's state, opened (`openRoundState`); undefined for a first call. */
  state: RequestStatePayload | undefined;
  /** The server asked: its `input_required` is sealed bound to it, and a backend state's retry must name it. */
  serverId: string;
  /**
   * Whether a 2025 backend's push request can wait in the call for the client's retry: a 2026-07-28 client's request
   * with a session of the hub. Otherwise the backend request runs on the front request's own signal.
   */
  parks: boolean;
  /** The request's progress to the client (tool calls): forwarded, and settled before the answer. */
  progress?: ProgressForwarder;
  /** The backend request, made as `attempt` says (the result as the backend gave it). */
  send(attempt: BackendAttempt): Promise<T>;
  /** Told when a parked call is given up because no retry came in time (its backend request is cancelled by then). */
  onDropped(reason: string): void;
}

/**
 * Which call a state belongs to: the caller, and the tool key, prompt or uri with a digest of its arguments. The
 * digest (a SHA-256) is computed only when a round asks for input or a retry is checked: not on every call.
 */
export function roundBinding(caller: Caller, key: string, args: Record<string, unknown>): InputBinding {
  return {
    caller,
    get call() {
      return callIdentity(key, args);
    },
  };
}

/** The retry's `requestState`, opened and checked against its binding (`-32602` when it is not ours); else undefined. */
export function openRoundState(
  inputs: PendingInputs,
  extra: RequestExtra,
  binding: InputBinding,
): RequestStatePayload | undefined {
  return extra.requestState !== undefined ? openRequestState(inputs, extra.requestState, binding) : undefined;
}

/**
 * Answers one round of a request that may ask the client for input, in every pair of protocol eras
 * (`docs/design/protocol-eras.md` §4), the same for tool calls, `prompts/get` and `resources/read`:
 *
 * - a 2026-07-28 backend's `input_required` goes to the client with our sealed state wrapping the backend's own; the
 *   retry (`state.kind === 'backend'`) sends the answers and that state back to the same server (the 2.x SDK's
 *   legacy shim asks a 2025 client with real requests and re-enters the handler with the answers);
 * - a 2026-07-28 client's first round (`parks`) runs the backend request as a parked call: a 2025 backend's push
 *   request waits in it, the round answers `input_required` naming the call, and the retry
 *   (`state.kind === 'parked'`) answers the push request and waits on the same call again.
 *
 * Failures are thrown for the handler to shape.
 */
export async function answerRound<T extends object>(round: InputRound<T>): Promise<T | ParkedInputRequired> {
  const { inputs, extra, state, progress } = round;
  if (state?.kind === 'parked') {
    return answerFromParked(inputs, resumeParked<T>(inputs, state, extra, progress?.onProgress), parking(round));
  }
  if (state || !round.parks) {
    const attempt: BackendAttempt = { signal: extra.signal, onProgress: progress?.onProgress };
    if (state) attempt.retry = backendRetry(state, round.serverId, extra);
    const result = await round.send(attempt);
    // Every forwarded call comes this way: nothing is awaited that need not be (a promise and a turn each).
    const settling = progress?.settle();
    if (settling) await settling;
    return sealBackendInput(round, result);
  }
  // On the parked call's own signal, so it can outlive the request (a 2025 backend's push request waits in it).
  const parked = startParked<T>(
    inputs,
    extra,
    async (call) => {
      const result = await round.send({
        signal: call.signal,
        // Each round's request gets the progress of its own time: the call forwards to the request attached now.
        onProgress: progress ? (update) => call.progress(update) : undefined,
        parked: call,
      });
      // Sealed here, bound to the server this round asked (a resumed round may not know it: a read's retry).
      return sealBackendInput(round, result);
    },
    progress?.onProgress,
  );
  return answerFromParked(inputs, parked, parking(round));
}

/** How a parked call's round is answered: bound as the request is, after its progress, its drop logged. */
function parking<T extends object>(round: InputRound<T>): ParkedAnswerSettings {
  const { progress } = round;
  return {
    binding: round.binding,
    ...(progress ? { settle: () => progress.settle() } : {}),
    onDropped: round.onDropped,
  };
}

/** A forwarded request's options for one attempt of a round: its signal, the parked call, the retry's answers. */
export function attemptOptions<O extends BackendRequestOptions & { origin: ClientOrigin }>(
  options: O,
  attempt: BackendAttempt,
): O {
  return {
    ...options,
    signal: attempt.signal,
    ...(attempt.parked ? { origin: { ...options.origin, parked: attempt.parked } } : {}),
    ...attempt.retry,
  };
}

/**
 * A 2026-07-28 backend's `input_required`, with our state wrapping its own; any other result unchanged (nearly every
 * result: nothing is bound or sealed for it, and the binding's digest is not computed).
 */
function sealBackendInput<T extends object>(round: InputRound<T>, result: T): T {
  return passInputRequired(round.inputs, result, round.serverId, round.binding);
}
