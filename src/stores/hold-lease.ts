/** What {@link holdLease} needs to keep a session lock alive and to give it back. */
export interface LeaseHolder {
  /** How long the lock lasts without a renewal, in ms. */
  leaseMs: number;
  /** Renews the lease if it is still ours; resolves to false once it is not (renewals then stop). */
  renew(): Promise<boolean> | boolean;
  /** Deletes the lock if it is still ours. */
  release(): Promise<void> | void;
  /** Time between renewals, in ms. @default a third of the lease, at least 1000 */
  renewEveryMs?: number;
}

/**
 * Keeps a lease-based session lock (Redis, PostgreSQL, SQLite) alive and returns its release.
 *
 * The lease is renewed every third of itself; a failed renewal is retried at the next tick (the
 * lease covers the gap). The release stops the renewals and retries the delete until it lands or
 * the lease has run out (the lock is then free anyway): a release that fails once — a Redis
 * Cluster master failing over, a dropped connection — would otherwise leave the session locked
 * for a whole lease after the store is back. The release is done only once the delete succeeded;
 * calling it again returns the same promise.
 */
export function holdLease(holder: LeaseHolder): () => Promise<void> {
  let heldUntil = Date.now() + holder.leaseMs;
  const renewal = setInterval(
    () => {
      const sentAt = Date.now();
      Promise.resolve()
        .then(() => holder.renew())
        .then(
          (ours) => {
            if (ours) heldUntil = Math.max(heldUntil, sentAt + holder.leaseMs);
            else clearInterval(renewal); // taken over: this holder's writes are refused from now on
          },
          () => {}, // the next renewal (or the release) tries again
        );
    },
    holder.renewEveryMs ?? Math.max(1000, Math.floor(holder.leaseMs / 3)),
  );
  // Node's timers can be unref'd (the renewal never keeps a process alive); edge runtimes' are plain numbers.
  (renewal as { unref?: () => void }).unref?.();
  let releasing: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    clearInterval(renewal);
    let delay = 50;
    for (;;) {
      try {
        await holder.release();
        return;
      } catch {
        const left = heldUntil - Date.now();
        if (left <= 0) return; // the lease ran out: no one holds the lock any more
        await new Promise((resolve) => setTimeout(resolve, Math.min(left, delay)));
        delay = Math.min(delay * 2, 1000);
      }
    }
  };
  return () => (releasing ??= release());
}

/**
 * Gives back a lock that a failed take may hold: a take can fail after it landed (the connection
 * died before the answer came back, a Redis Cluster master failed over under it), and its token
 * is known to no one else, so without this the session stays locked for a whole lease. Waits for
 * the first `remove`; one that fails is retried in the background, as a release is, until it
 * lands or the lease has run out.
 */
export async function giveBackFailedTake(leaseMs: number, remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch {
    void holdLease({ leaseMs, renew: () => false, release: remove })();
  }
}
