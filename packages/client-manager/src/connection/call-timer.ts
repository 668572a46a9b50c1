/**
 * The idle limit of one forwarded request: fires after `timeoutMs` without progress. Progress restarts it, and it
 * can be paused (while the backend waits on the client: a user answering an elicitation must not time the call
 * out). Our own instead of the SDK's `timeout`, which cannot be paused.
 */
export class CallTimer {
  private timer: NodeJS.Timeout | undefined;
  private pauses = 0;
  private done = false;
  private everPaused = false;

  /** `onPause`: told at every pause (a request whose idle limit can stop needs its overall limit from then on). */
  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: () => void,
    private readonly onPause?: () => void,
  ) {
    this.arm();
  }

  /** Progress arrived: the full `timeoutMs` again (unless paused). */
  reset(): void {
    if (this.done || this.pauses > 0) return;
    this.timer?.refresh();
  }

  pause(): void {
    if (this.done) return;
    this.pauses += 1;
    this.everPaused = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.onPause?.();
  }

  /** Ends one pause; the full `timeoutMs` starts again when no pause is left. */
  resume(): void {
    if (this.done || this.pauses === 0) return;
    this.pauses -= 1;
    if (this.pauses === 0) this.arm();
  }

  get paused(): boolean {
    return this.pauses > 0;
  }

  /** True once the timer was paused (the backend waited on the client at some point). */
  get wasPaused(): boolean {
    return this.everPaused;
  }

  stop(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.done = true;
      this.onTimeout();
    }, this.timeoutMs);
  }
}
