import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallTimer } from './call-timer.js';
import { InFlightRequests } from './in-flight-requests.js';
import { LogRateLimiter } from './log-rate-limit.js';
import { RequestAbort } from './request-abort.js';

// The timing pieces of a forwarded request, on fake timers (their real use is covered by the manager's tests).
describe('request timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('CallTimer fires after timeoutMs without progress, restarts on progress and waits while paused', () => {
    const fired: number[] = [];
    const timer = new CallTimer(100, () => fired.push(Date.now()));
    vi.advanceTimersByTime(80);
    timer.reset();
    vi.advanceTimersByTime(80);
    expect(fired).toEqual([]);
    timer.pause();
    timer.pause();
    vi.advanceTimersByTime(1000);
    timer.resume();
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual([]);
    expect(timer.paused).toBe(true);
    timer.resume();
    expect(timer.wasPaused).toBe(true);
    vi.advanceTimersByTime(99);
    expect(fired).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(fired).toHaveLength(1);
    timer.reset();
    vi.advanceTimersByTime(500);
    expect(fired).toHaveLength(1);
  });

  it('CallTimer tells every pause (the overall limit of a request starts there)', () => {
    const pauses: number[] = [];
    const timer = new CallTimer(
      100,
      () => {},
      () => pauses.push(Date.now()),
    );
    vi.advanceTimersByTime(50);
    expect(pauses).toEqual([]);
    timer.pause();
    timer.resume();
    timer.pause();
    expect(pauses).toHaveLength(2);
    timer.stop();
    timer.pause();
    expect(pauses).toHaveLength(2);
  });

  it('InFlightRequests lists newest first and pauses every timer while a reverse request is pending', () => {
    const registry = new InFlightRequests();
    const fired: string[] = [];
    const first = new CallTimer(100, () => fired.push('first'));
    const second = new CallTimer(100, () => fired.push('second'));
    const doneFirst = registry.add({ origin: { n: 1 }, method: 'tools/call', name: 'a' }, first);
    registry.add({ origin: { n: 2 }, method: 'resources/read' }, second);
    expect(registry.list().map((entry) => [entry.origin, entry.method, entry.name])).toEqual([
      [{ n: 2 }, 'resources/read', undefined],
      [{ n: 1 }, 'tools/call', 'a'],
    ]);
    registry.pauseAll();
    registry.pauseAll();
    const third = new CallTimer(100, () => fired.push('third'));
    registry.add({ origin: {}, method: 'prompts/get' }, third);
    vi.advanceTimersByTime(500);
    registry.resumeAll();
    vi.advanceTimersByTime(500);
    expect(fired).toEqual([]);
    doneFirst();
    first.stop();
    registry.resumeAll();
    vi.advanceTimersByTime(100);
    expect(fired.sort()).toEqual(['second', 'third']);
    expect(registry.size).toBe(2);
  });

  it('LogRateLimiter lets a burst through, then the rate, and reports what it dropped once a second', () => {
    const reports: number[] = [];
    const limiter = new LogRateLimiter({ perSecond: 10, burst: 5 }, (count) => reports.push(count));
    const passed = Array.from({ length: 20 }, () => limiter.take()).filter(Boolean).length;
    expect(passed).toBe(5);
    vi.advanceTimersByTime(1000);
    expect(reports).toEqual([15]);
    expect(Array.from({ length: 20 }, () => limiter.take()).filter(Boolean).length).toBe(5);
    limiter.close();
    expect(reports).toEqual([15, 15]);
  });

  it('RequestAbort tells its listeners once, with the reason', () => {
    const abort = new RequestAbort();
    const heard: unknown[] = [];
    const listener = () => heard.push(abort.reason);
    abort.addEventListener('abort', listener);
    abort.addEventListener('abort', () => heard.push('second'));
    abort.removeEventListener('abort', listener);
    expect(() => abort.throwIfAborted()).not.toThrow();
    const reason = new Error('stop');
    abort.abort(reason);
    abort.abort(new Error('again'));
    expect(heard).toEqual(['second']);
    expect(abort.signal.aborted).toBe(true);
    expect(() => abort.throwIfAborted()).toThrow(reason);
  });
});
