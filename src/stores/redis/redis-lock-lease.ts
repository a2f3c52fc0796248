/**
 * Keeps a session lock taken with `SET key token PX lease NX` alive, and releases it.
 *
 * `renew(leaseMs)` runs the compare-and-renew script (lease 0: compare-and-delete) and resolves
 * to 1 while the lock is ours. The lease is renewed every third of itself. The release stops the
 * renewals and retries the delete until it lands or the lease has run out (the lock is then free
 * anyway): a release that fails once — a Redis Cluster master failing over, a dropped connection
 * — would otherwise leave the session locked for a whole lease after the store is back. The
 * release is done only once the delete succeeded; calling it again returns the same promise.
 */
export function holdLockLease(leaseMs: number, renew: (leaseMs: number) => Promise<unknown>): () => Promise<void> {
  let heldUntil = Date.now() + leaseMs;
  const renewal = setInterval(
    () => {
      const sentAt = Date.now();
      renew(leaseMs).then(
        (result) => {
          if (Number(result) === 1) heldUntil = Math.max(heldUntil, sentAt + leaseMs);
        },
        () => {}, // the next renewal (or the release) tries again; the lease covers the gap
      );
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  renewal.unref();
  let releasing: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    clearInterval(renewal);
    let delay = 50;
    for (;;) {
      try {
        await renew(0);
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
