/** The shortest and longest wait between two `tasks/get` of one task, whatever interval the backend suggests. */
const minimumPollMs = 250;
const maximumPollMs = 5000;

/**
 * How long to wait before the next `tasks/get` of a task: the backend's suggested interval (2025 `pollInterval`,
 * 2026 `pollIntervalMs`), else 1 s, kept within 250 ms … 5 s (a backend cannot make us poll it hot, nor make a
 * caller wait minutes between two looks).
 */
export function taskPollDelayMs(suggested: unknown): number {
  const interval = typeof suggested === 'number' && Number.isFinite(suggested) ? suggested : 1000;
  return Math.min(maximumPollMs, Math.max(minimumPollMs, interval));
}

const terminalStatuses = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task's status is final (`completed`, `failed`, `cancelled`): following it stops there. */
export function isTerminalTaskStatus(status: unknown): boolean {
  return typeof status === 'string' && terminalStatuses.has(status);
}
