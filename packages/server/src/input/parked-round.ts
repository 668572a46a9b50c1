import type { ToolProgress } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import { JsonRpcWireError } from '../wire-errors.js';
import type { InputBinding } from './backend-input-state.js';
import type { EmbeddedRequest, ParkedCall } from './parked-call.js';
import type { PendingInputs } from './pending-inputs.js';
import { callerIdentity, invalidRequestState, type RequestStatePayload } from './request-state-codec.js';

/** Our answer to a round whose parked call has questions for the client (a type alias: it fits an open result type). */
export type ParkedInputRequired = {
  resultType: 'input_required';
  inputRequests: Record<string, EmbeddedRequest>;
  requestState: string;
};

export interface ParkedAnswerSettings {
  /** What the round's `requestState` is bound to: the caller, and the tool call, prompt or uri with its arguments. */
  binding: InputBinding;
  /** Resolves once the round's progress notifications went out (they precede the answer). */
  settle?: () => Promise<void> | undefined;
  /** Told when the call is given up because no retry came in time (its backend request is cancelled by then). */
  onDropped(reason: string): void;
}

/**
 * Starts a 2026-07-28 client's backend request (a tool call, `prompts/get`, `resources/read`) on the parked call's own
 * signal, so it can outlive the request that started it: `send` gets the call, to hand the backend request as its
 * signal and as `origin.parked` (where a 2025 backend's push request during it waits for the client's retry).
 */
export function startParked<T>(
  inputs: PendingInputs,
  extra: RequestExtra,
  send: (parked: ParkedCall<T>) => Promise<T>,
  onProgress?: (progress: ToolProgress) => void,
): ParkedCall<T> {
  const parked = inputs.create<T>();
  attachRequest(parked, extra, onProgress);
  parked.run(send(parked));
  return parked;
}

/**
 * A retry whose (opened, bound) state names a parked call: the request takes the call and answers its questions with
 * the retry's `inputResponses`. A state of another kind, or a call no longer held, is refused (`-32602`).
 */
export function resumeParked<T>(
  inputs: PendingInputs,
  state: RequestStatePayload,
  extra: RequestExtra,
  onProgress?: (progress: ToolProgress) => void,
): ParkedCall<T> {
  const parked = state.kind === 'parked' ? inputs.get<T>(state.callId) : undefined;
  if (!parked) throw invalidRequestState();
  attachRequest(parked, extra, onProgress);
  parked.answer(extra.inputResponses);
  return parked;
}

/**
 * Waits for the parked call's result or its next questions and answers the round with them: the result, its failure
 * (thrown), or `input_required` with the questions and our sealed `requestState` naming the
 * call — then the call waits for the retry, at most as long as its questions allow, and counts against the
 * registry's cap of held calls (`inputs.maxHeld`; past it the call is dropped and the round fails).
 */
export async function answerFromParked<T>(
  inputs: PendingInputs,
  parked: ParkedCall<T>,
  settings: ParkedAnswerSettings,
): Promise<T | ParkedInputRequired> {
  const outcome = await parked.outcome();
  await settings.settle?.();
  if (outcome.kind === 'input') {
    if (!inputs.hold(parked)) {
      parked.drop('too many calls wait for input');
      throw new JsonRpcWireError(
        -32603,
        `Search MCP already holds ${inputs.maxHeld} calls waiting for their clients' input; try again later`,
      );
    }
    parked.release(settings.onDropped);
    return {
      resultType: 'input_required',
      inputRequests: outcome.inputRequests,
      requestState: inputs.codec.seal({
        kind: 'parked',
        callId: parked.id,
        caller: callerIdentity(settings.binding.caller),
        call: settings.binding.call,
      }),
    };
  }
  inputs.forget(parked);
  if (outcome.kind === 'failed') throw outcome.error;
  return outcome.result;
}

/** The request takes the call: its cancellation cancels the call, its envelope says what may be asked. */
function attachRequest<T>(
  parked: ParkedCall<T>,
  extra: RequestExtra,
  onProgress: ((progress: ToolProgress) => void) | undefined,
): void {
  parked.attach({ signal: extra.signal, clientCapabilities: extra.clientCapabilities, onProgress });
}
