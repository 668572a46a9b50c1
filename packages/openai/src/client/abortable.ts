/**
 * Waiting that stops when a signal aborts. The SDK aborts its HTTP requests on a signal but not the pauses between
 * its retries; racing the call against the signal makes a cancelled caller return at once (the SDK's call then ends
 * by itself at its next step, with nothing left listening).
 */

import { delay as sharedDelay, untilAborted as untilSignalAborted } from '@search-mcp/shared';

/** The signal's reason as an Error. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}

/** Resolves after `ms`, or rejects with the abort reason (as an Error) as soon as `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return sharedDelay(ms, signal, abortReason);
}

/** `promise`, or a rejection with the abort reason (as an Error) as soon as `signal` aborts, whichever comes first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return untilSignalAborted(promise, signal, abortReason);
}
