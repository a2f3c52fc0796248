import { AbortError } from "../errors/abort-error";

/**
 * Waits for `promise`, or rejects with an `AbortError` naming the session as soon as `signal`
 * aborts (at once when it already has). The promise itself is not cancelled: a caller that gave
 * up on something it would own when it settles (a lock) must release it then.
 */
export function waitUnlessAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  sessionId: string,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AbortError({ sessionId, cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError({ sessionId, cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
