import { SessionBusyError } from "../errors/session-busy-error";

/**
 * Calls `tryOnce` until it takes the lock or `timeoutMs` passes (0: one try), with a short
 * jittered backoff. Rejects with a `SessionBusyError` when the lock stays taken.
 */
export async function pollLock<T>(sessionId: string, timeoutMs: number, tryOnce: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + Math.max(0, timeoutMs);
  let delay = 5;
  for (;;) {
    const taken = await tryOnce();
    if (taken !== undefined) return taken;
    const left = deadline - Date.now();
    if (left <= 0) throw new SessionBusyError({ sessionId });
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, delay * (0.5 + Math.random()))));
    delay = Math.min(delay * 2, 100);
  }
}
