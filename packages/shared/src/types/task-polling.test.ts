import { describe, expect, it } from 'vitest';
import { isTerminalTaskStatus, taskPollDelayMs } from './task-polling.js';

describe('taskPollDelayMs', () => {
  it("follows the backend's interval within 250 ms … 5 s, and waits 1 s when it suggests none", () => {
    expect(taskPollDelayMs(800)).toBe(800);
    expect(taskPollDelayMs(10)).toBe(250);
    expect(taskPollDelayMs(60_000)).toBe(5000);
    expect(taskPollDelayMs(undefined)).toBe(1000);
    expect(taskPollDelayMs('500')).toBe(1000);
    expect(taskPollDelayMs(Number.NaN)).toBe(1000);
    expect(taskPollDelayMs(Number.POSITIVE_INFINITY)).toBe(1000);
  });
});

describe('isTerminalTaskStatus', () => {
  it('is true for the final statuses only', () => {
    for (const status of ['completed', 'failed', 'cancelled']) expect(isTerminalTaskStatus(status)).toBe(true);
    for (const status of ['working', 'input_required', undefined, 3]) expect(isTerminalTaskStatus(status)).toBe(false);
  });
});
