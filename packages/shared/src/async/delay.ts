/**
 * Resolves after `ms`, or rejects with `reasonOf(signal)` as soon as `signal` aborts (at once when it already has).
 * The one abortable wait for retries and polls.
 */
export function delay(
  ms: number,
  signal?: AbortSignal,
  reasonOf: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(reasonOf(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(reasonOf(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
