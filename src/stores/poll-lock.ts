import { SessionBusyError } from "../errors/session-busy-error";
import { waitUnlessAborted } from "./wait-unless-aborted";

/**
 * Calls `tryOnce` until it takes the lock or `timeoutMs` passes (0: one try), with a short
 * jittered backoff. Rejects with a `SessionBusyError` when the lock stays taken, and with an
 * `AbortError` as soon as `signal` aborts (no try is made after that).
 */
export async function pollLock<T>(
  sessionId: string,
  timeoutMs: number,
  tryOnce: () => Promise<T | undefined>,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + Math.max(0, timeoutMs);
  let delay = 5;
  for (;;) {
    await waitUnlessAborted(Promise.resolve(), signal, sessionId);
    const taken = await tryOnce();
    if (taken !== undefined) return taken;
    const left = deadline - Date.now();
    if (left <= 0) throw new SessionBusyError({ sessionId });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await waitUnlessAborted(
        new Promise((resolve) => (timer = setTimeout(resolve, Math.min(left, delay * (0.5 + Math.random()))))),
        signal,
        sessionId,
      );
    } finally {
      clearTimeout(timer);
    }
    delay = Math.min(delay * 2, 100);
  }
}
