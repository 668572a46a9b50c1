/**
 * `promise`, or a rejection with `reasonOf(signal)` as soon as `signal` aborts, whichever comes first. For work that
 * may not stop on the signal itself (a source's call, an SDK's retry pause): the caller is answered at once, and a
 * later failure of `promise` is absorbed (nothing is left listening, so it must not surface as unhandled).
 * Two callbacks, no `finally`: forwarded tool calls pass here, and `finally` costs two more promises each time.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(reasonOf(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(reasonOf(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
