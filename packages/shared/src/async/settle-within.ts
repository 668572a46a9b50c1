/**
 * Waits for `promise` at most `timeoutMs`: `{ value }` when it settled first, undefined when the time ran out (its
 * later outcome is then ignored, a rejection included). A rejection before the time is out is thrown. The one bounded
 * wait for work that must not hold up a request or a shutdown (a shared store that does not answer).
 */
export async function settleWithin<Value>(
  promise: Promise<Value>,
  timeoutMs: number,
): Promise<{ value: Value } | undefined> {
  promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
