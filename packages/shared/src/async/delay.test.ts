import { describe, expect, it } from 'vitest';
import { delay } from './delay.js';

describe('delay', () => {
  it('resolves after the wait, with or without a signal', async () => {
    await expect(delay(1)).resolves.toBeUndefined();
    await expect(delay(1, new AbortController().signal)).resolves.toBeUndefined();
  });

  it('rejects with the reason when the signal aborts during the wait, or at once when it already has', async () => {
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal, (signal) => new Error(`stopped: ${String(signal.reason)}`));
    controller.abort('bye');
    await expect(waiting).rejects.toThrow('stopped: bye');
    await expect(delay(60_000, controller.signal)).rejects.toBe('bye');
  });
});
