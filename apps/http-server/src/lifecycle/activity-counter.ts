import type { PendingRequestListener } from '../mcp/tracked-transport.js';

/**
 * Counts the calls the app is answering (REST tool calls and unanswered MCP requests of every session), so a shutdown
 * can wait for them to finish, up to a grace period, before it answers the rest 503.
 */
export class ActivityCounter implements PendingRequestListener {
  private count = 0;
  private readonly waiters = new Set<() => void>();

  get active(): number {
    return this.count;
  }

  requestStarted(): void {
    this.count += 1;
  }

  requestEnded(): void {
    this.count = Math.max(0, this.count - 1);
    if (this.count === 0) for (const wake of [...this.waiters]) wake();
  }

  /** Resolves true once nothing is active, or false after `timeoutMs` with calls still running. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (idle: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(idle);
      };
      const wake = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiters.add(wake);
    });
  }
}
