import { afterEach, describe, expect, it } from 'vitest';
import type { RequestExtra } from '../request-extra-types.js';
import { JsonRpcWireError } from '../wire-errors.js';
import type { InputBinding } from './backend-input-state.js';
import type { ParkedCall } from './parked-call.js';
import { PendingInputs } from './pending-inputs.js';
import { answerFromParked, resumeParked, startParked } from './parked-round.js';
import { callerIdentity } from './request-state-codec.js';
import { modernClientEra } from '../eras/modern-client-era.js';

// The rounds of a 2026-07-28 client's request whose backend request a 2025 backend interrupts (shared by tool calls,
// prompts/get and resources/read): a registry and its codec, a backend request the test settles. The
// end-to-end cases with real backends are in `era-bridging.test.ts` and `prompt-and-resource-input.test.ts`.
const pendingInputs = new PendingInputs();
const binding: InputBinding = { caller: { tokenId: 'ann' }, call: 'prompts/get s:p#digest' };
const elicit = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
const held: ParkedCall<unknown>[] = [];

afterEach(() => {
  for (const call of held.splice(0)) pendingInputs.forget(call);
});

/** What a handler gets with a request, as far as a round reads it. */
function requestExtra(fields: Partial<RequestExtra> = {}): RequestExtra {
  return {
    requestId: 1,
    signal: new AbortController().signal,
    era: 'modern',
    clientEra: modernClientEra,
    clientCapabilities: { elicitation: { form: {} } },
    sendNotification: async () => {},
    sendRequest: async () => ({}),
    ...fields,
  };
}

/** A parked backend request that asks once (as a 2025 backend's push request does), then answers with the reply. */
function askingRequest(extra = requestExtra()) {
  let asked: Promise<Record<string, unknown>> = Promise.resolve({});
  const parked = startParked<Record<string, unknown>>(pendingInputs, extra, async (call) => {
    asked = call.ask('elicitation/create', elicit, { signal: new AbortController().signal, timeoutMs: 60_000 });
    return { messages: [{ role: 'user', content: { type: 'text', text: `reply ${JSON.stringify(await asked)}` } }] };
  });
  held.push(parked as ParkedCall<unknown>);
  return parked;
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
const onDropped = () => {};

describe('parked rounds', () => {
  it('a question: input_required with a sealed state naming the call and its binding; the retry continues', async () => {
    const parked = askingRequest();
    const round = await answerFromParked(pendingInputs, parked, { binding, onDropped });
    expect(round).toEqual({
      resultType: 'input_required',
      inputRequests: { 'elicitation-1': { method: 'elicitation/create', params: elicit } },
      requestState: expect.stringMatching(/^smcp1\./),
    });
    const state = pendingInputs.codec.open((round as { requestState: string }).requestState);
    expect(state).toEqual({
      kind: 'parked',
      callId: parked.id,
      caller: callerIdentity(binding.caller),
      call: binding.call,
    });
    expect(pendingInputs.get(parked.id)).toBe(parked);

    const retry = requestExtra({ inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });
    const resumed = resumeParked<Record<string, unknown>>(pendingInputs, state, retry);
    expect(resumed).toBe(parked);
    expect(await answerFromParked(pendingInputs, resumed, { binding, onDropped })).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'reply {"action":"accept","content":{"name":"Ada"}}' } },
      ],
    });
    // Answered: nothing held, the state names nothing any more.
    expect(pendingInputs.get(parked.id)).toBeUndefined();
    expect(() => resumeParked(pendingInputs, state, retry)).toThrow('Invalid or expired requestState');
  });

  it('a retry whose state is of the other kind is refused with -32602', () => {
    const state = { kind: 'backend' as const, server: 's', backendState: undefined, caller: 'c', call: 'x' };
    const refused = (() => {
      try {
        resumeParked(pendingInputs, state, requestExtra());
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(JsonRpcWireError);
    expect((refused as JsonRpcWireError).code).toBe(-32602);
  });

  it('a request that never asks answers at once and holds nothing; its failure is thrown', async () => {
    const done = startParked(pendingInputs, requestExtra(), async () => ({ contents: [] }));
    expect(await answerFromParked(pendingInputs, done, { binding, onDropped })).toEqual({ contents: [] });
    const failing = startParked(pendingInputs, requestExtra(), async () => {
      throw new JsonRpcWireError(-32002, 'Resource not found');
    });
    expect(await errorOf(answerFromParked(pendingInputs, failing, { binding, onDropped }))).toMatchObject({
      code: -32002,
    });
    expect(pendingInputs.size).toBe(0);
  });

  it('cancelling the request cancels the backend request (its signal)', async () => {
    const request = new AbortController();
    const parked = startParked(pendingInputs, requestExtra({ signal: request.signal }), async (call) => {
      await new Promise((resolve) => call.signal.addEventListener('abort', resolve, { once: true }));
      throw new Error('cancelled at the backend');
    });
    request.abort('enough');
    expect(parked.open).toBe(false);
    expect(await errorOf(answerFromParked(pendingInputs, parked, { binding, onDropped }))).toMatchObject({
      message: 'cancelled at the backend',
    });
  });

  it('counts against the cap of held calls: past it, the round fails and the call is dropped', async () => {
    const before = pendingInputs.size;
    for (let index = before; index < pendingInputs.maxHeld; index += 1) {
      const filler = pendingInputs.create();
      expect(pendingInputs.hold(filler)).toBe(true);
      held.push(filler as ParkedCall<unknown>);
    }
    const parked = askingRequest();
    const failure = await errorOf(answerFromParked(pendingInputs, parked, { binding, onDropped }));
    expect(failure).toBeInstanceOf(JsonRpcWireError);
    expect((failure as JsonRpcWireError).message).toBe(
      `Search MCP already holds ${pendingInputs.maxHeld} calls waiting for their clients' input; try again later`,
    );
    expect(parked.open).toBe(false);
    expect(pendingInputs.size).toBe(pendingInputs.maxHeld);
  });
});
