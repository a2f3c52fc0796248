import { waitUnlessAborted } from "../wait-unless-aborted";

/** A request that got no answer within the store's `requestTimeoutMs`. */
export class RequestTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(
      `no answer within ${timeoutMs} ms (requestTimeoutMs): the server or the network is stuck. A write may still land; retrying it is safe (appends are idempotent by message id)`,
    );
    this.name = "RequestTimeoutError";
  }
}

/**
 * Waits for `promise` at most `timeoutMs` (0: no limit), then rejects with a
 * `RequestTimeoutError`; rejects with an `AbortError` naming the session as soon as `signal`
 * aborts. The request itself is not cancelled (the client owns it): the caller stops waiting.
 */
export function withinDeadline<T>(
  promise: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  sessionId: string | undefined,
): Promise<T> {
  const guarded = signal && sessionId !== undefined ? waitUnlessAborted(promise, signal, sessionId) : promise;
  if (timeoutMs <= 0) return guarded;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([guarded, timeout]).finally(() => clearTimeout(timer));
}
