import { describe, expect, it } from 'vitest';
import { defaultRestartPolicy, restartDelayMs } from './restart-policy.js';

describe('restartDelayMs', () => {
  it('doubles from about 1 s and caps at 30 s by default', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => restartDelayMs(defaultRestartPolicy, attempt));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('never overflows for absurd attempt numbers', () => {
    expect(restartDelayMs(defaultRestartPolicy, 10_000)).toBe(30_000);
    expect(restartDelayMs(defaultRestartPolicy, 0)).toBe(1000);
  });
});
