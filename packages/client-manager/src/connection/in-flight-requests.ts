import type { InFlightRequest, RequestOrigin } from '../reverse/reverse-request-types.js';
import type { CallTimer } from './call-timer.js';

interface Entry extends InFlightRequest {
  readonly timer: CallTimer | undefined;
}

/**
 * The requests of ours that one server is working on, with the client request each serves: what a reverse
 * request is attributed by. While the server waits on the client (a reverse request is pending), the idle timers of
 * these requests are paused.
 */
export class InFlightRequests {
  private readonly entries = new Set<Entry>();
  private pauses = 0;

  /** Registers a request; call the returned function when it ends. */
  add(request: { origin: RequestOrigin; method: string; name?: string }, timer?: CallTimer): () => void {
    const entry: Entry = { ...request, startedAt: performance.now(), timer };
    if (this.pauses > 0) timer?.pause();
    this.entries.add(entry);
    return () => {
      if (this.entries.delete(entry) && this.pauses > 0) entry.timer?.resume();
    };
  }

  /** Newest first. */
  list(): InFlightRequest[] {
    const list: InFlightRequest[] = [];
    for (const { timer: _timer, ...request } of this.entries) list.unshift(request);
    return list;
  }

  get size(): number {
    return this.entries.size;
  }

  /** A reverse request started: every idle timer stops until as many `resumeAll` calls have come. */
  pauseAll(): void {
    this.pauses += 1;
    if (this.pauses === 1) for (const entry of this.entries) entry.timer?.pause();
  }

  resumeAll(): void {
    if (this.pauses === 0) return;
    this.pauses -= 1;
    if (this.pauses === 0) for (const entry of this.entries) entry.timer?.resume();
  }
}
