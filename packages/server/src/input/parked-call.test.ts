import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PendingInputs } from './pending-inputs.js';

const elicit = { message: 'Name?', requestedSchema: { type: 'object', properties: {} }, _meta: { progressToken: 1 } };

/** A call whose backend work is a promise the test settles. */
function parkedCall(inputs = new PendingInputs()) {
  const call = inputs.create();
  let finish: (text: string) => void = () => {};
  call.run(
    new Promise((resolve, reject) => {
      finish = (text) => resolve({ content: [{ type: 'text', text }] });
      call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
    }),
  );
  return { call, inputs, finish: (text: string) => finish(text) };
}

describe('ParkedCall', () => {
  it('asks what the backend parked (without its _meta), takes answers by key, and asks again what is unanswered', async () => {
    const { call, finish } = parkedCall();
    const backend = new AbortController();
    const first = call.ask('elicitation/create', elicit, { signal: backend.signal, timeoutMs: 1000 });
    const second = call.ask('sampling/createMessage', { messages: [] }, { signal: backend.signal, timeoutMs: 1000 });
    expect(await call.outcome()).toEqual({
      kind: 'input',
      inputRequests: {
        'elicitation-1': {
          method: 'elicitation/create',
          params: { message: 'Name?', requestedSchema: elicit.requestedSchema },
        },
        'sampling-2': { method: 'sampling/createMessage', params: { messages: [] } },
      },
    });
    call.answer({ 'elicitation-1': { action: 'decline' }, unknown: { action: 'accept' } });
    expect(await first).toEqual({ action: 'decline' });
    expect(await call.outcome()).toMatchObject({ kind: 'input', inputRequests: { 'sampling-2': {} } });
    call.answer({ 'sampling-2': { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } });
    await second;
    const done = call.outcome();
    finish('done');
    expect(await done).toEqual({ kind: 'complete', result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('is cancelled by the request attached now, not by one it was released from', async () => {
    const { call } = parkedCall();
    const firstRequest = new AbortController();
    call.attach({ signal: firstRequest.signal, clientCapabilities: {}, onProgress: undefined });
    void call.ask('roots/list', {}, { signal: new AbortController().signal, timeoutMs: 60_000 }).catch(() => {});
    call.release();
    firstRequest.abort();
    expect(call.open).toBe(true);
    const retry = new AbortController();
    call.attach({ signal: retry.signal, clientCapabilities: {}, onProgress: undefined });
    retry.abort('cancelled by the client');
    expect(call.open).toBe(false);
    expect(await call.outcome()).toEqual({ kind: 'failed', error: 'cancelled by the client' });
  });

  it('released and never retried: dropped after the longest wait of its questions, which fail', async () => {
    const { call, inputs } = parkedCall();
    const asked = call.ask('roots/list', {}, { signal: new AbortController().signal, timeoutMs: 20 });
    inputs.hold(call);
    const dropped = once(inputs, 'dropped');
    call.release();
    expect(await dropped).toEqual([call.id, 'no retry within 20 ms']);
    await expect(asked).rejects.toMatchObject({ code: -32001 });
    expect(call.open).toBe(false);
    expect(inputs.get(call.id)).toBeUndefined();
  });

  it('a question the backend withdraws is not asked', async () => {
    const { call } = parkedCall();
    const backend = new AbortController();
    const asked = call.ask('roots/list', {}, { signal: backend.signal, timeoutMs: 1000 });
    backend.abort();
    await expect(asked).rejects.toMatchObject({ code: -32603 });
    const next = call.outcome();
    void call.ask('elicitation/create', elicit, { signal: new AbortController().signal, timeoutMs: 1000 });
    expect(Object.keys(((await next) as { inputRequests: object }).inputRequests)).toEqual(['elicitation-2']);
  });

  it('the registry holds at most maxHeld calls; a dropped call tells who released it', async () => {
    const inputs = new PendingInputs({ maxHeld: 1 });
    const first = parkedCall(inputs).call;
    const second = parkedCall(inputs).call;
    expect(inputs.hold(first)).toBe(true);
    expect(inputs.hold(first)).toBe(true);
    expect(inputs.hold(second)).toBe(false);
    expect(inputs.get(second.id)).toBeUndefined();
    const reasons: string[] = [];
    first.release((reason) => reasons.push(reason));
    first.drop('shutting down');
    expect(reasons).toEqual(['shutting down']);
    expect(inputs.size).toBe(0);
    expect(inputs.hold(second)).toBe(true);
  });
});
