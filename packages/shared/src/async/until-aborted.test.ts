import { describe, expect, it } from 'vitest';
import { untilAborted } from './until-aborted.js';

describe('untilAborted', () => {
  it('passes the value or the failure through, and stops listening to the signal', async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    // Aborting afterwards changes nothing (the listener is gone, the promises settled).
    controller.abort(new Error('late'));
  });

  it('rejects at once with the reason when the signal aborts first, and absorbs the late failure', async () => {
    const controller = new AbortController();
    let fail: (error: Error) => void = () => {};
    const work = new Promise<number>((_resolve, reject) => {
      fail = reject;
    });
    const raced = untilAborted(work, controller.signal, (signal) => new Error(`stopped: ${String(signal.reason)}`));
    controller.abort('bye');
    await expect(raced).rejects.toThrow('stopped: bye');
    // Would be an unhandled rejection if nothing absorbed it (vitest fails the run on one).
    fail(new Error('late failure'));
  });

  it('rejects an already aborted signal without waiting, and returns the promise itself without a signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    await expect(untilAborted(Promise.reject(new Error('ignored')), controller.signal)).rejects.toThrow('before');
    const work = Promise.resolve(1);
    expect(untilAborted(work, undefined)).toBe(work);
  });
});
