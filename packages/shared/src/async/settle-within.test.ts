import { describe, expect, it } from 'vitest';
import { settleWithin } from './settle-within.js';

describe('settleWithin', () => {
  it('answers the value of a promise that settles in time', async () => {
    await expect(settleWithin(Promise.resolve(42), 1000)).resolves.toEqual({ value: 42 });
  });

  it('answers undefined when the time runs out, and ignores a later rejection', async () => {
    let reject: (error: Error) => void = () => {};
    const never = new Promise<number>((_resolve, rejectLater) => {
      reject = rejectLater;
    });
    await expect(settleWithin(never, 5)).resolves.toBeUndefined();
    reject(new Error('too late'));
  });

  it('throws a rejection that comes in time', async () => {
    await expect(settleWithin(Promise.reject(new Error('no store')), 1000)).rejects.toThrow('no store');
  });
});
