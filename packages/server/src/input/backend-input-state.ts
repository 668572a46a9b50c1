import type { Caller } from '@search-mcp/catalog';
import { type InputRetry, isInputRequiredResult } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import type { PendingInputs } from './pending-inputs.js';
import { callerIdentity, invalidRequestState, type RequestStatePayload } from './request-state-codec.js';

/**
 * Which request a `requestState` of ours belongs to: the caller, and the call (`callIdentity` of the tool key, prompt
 * or uri and its arguments). A state is good for that caller's retry of that call only.
 */
export interface InputBinding {
  caller: Caller;
  call: string;
}

/**
 * Our `requestState` of a retry, opened: sealed by this registry's codec, unexpired, for this caller and call; else
 * `-32602`.
 */
export function openRequestState(
  inputs: PendingInputs,
  requestState: string,
  binding: InputBinding,
): RequestStatePayload {
  const state = inputs.codec.open(requestState);
  if (state.caller !== callerIdentity(binding.caller) || state.call !== binding.call) throw invalidRequestState();
  return state;
}

/**
 * The retry to send a 2026-07-28 backend: the client's answers and the backend's own state, which ours wrapped.
 * A state of another kind or naming another server is refused (`-32602`).
 */
export function backendRetry(state: RequestStatePayload, server: string, extra: RequestExtra): InputRetry {
  if (state.kind !== 'backend' || state.server !== server) throw invalidRequestState();
  return {
    inputResponses: extra.inputResponses ?? {},
    ...(state.backendState !== undefined ? { requestState: state.backendState } : {}),
  };
}

/**
 * A 2026-07-28 backend's `input_required`, for the client: the same questions, and our `requestState` in place of
 * the backend's (wrapped in it, signed, bound to `server`, the caller and the call). Any other result is unchanged.
 */
export function passInputRequired<T extends object>(
  inputs: PendingInputs,
  result: T,
  server: string,
  binding: InputBinding,
): T {
  if (!isInputRequiredResult(result)) return result;
  return {
    resultType: 'input_required',
    inputRequests: result.inputRequests,
    requestState: inputs.codec.seal({
      kind: 'backend',
      server,
      backendState: result.requestState,
      caller: callerIdentity(binding.caller),
      call: binding.call,
    }),
  } as unknown as T;
}
