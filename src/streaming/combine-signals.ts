/** An abort signal that follows several others, and the way to stop following them. */
export interface CombinedSignal {
  /** Aborts, with the first reason, when any of the signals does. */
  readonly signal: AbortSignal;
  /** Removes the listeners from the source signals (idempotent). Call it when the work is done. */
  dispose(): void;
}

/**
 * `AbortSignal.any` for runtimes that lack it (edge-runtime, the sandbox Next.js uses for edge
 * routes), and with an explicit end: a long-lived signal such as a server's shutdown signal
 * keeps no listener per finished request. The listeners also go once the combined signal fires.
 */
export function combineSignals(signals: readonly AbortSignal[]): CombinedSignal {
  const controller = new AbortController();
  const listeners: { signal: AbortSignal; listener: () => void }[] = [];
  const dispose = () => {
    for (const { signal, listener } of listeners.splice(0)) signal.removeEventListener("abort", listener);
  };
  for (const signal of signals) {
    if (signal.aborted) {
      dispose();
      controller.abort(signal.reason);
      break;
    }
    const listener = () => {
      dispose();
      controller.abort(signal.reason);
    };
    signal.addEventListener("abort", listener, { once: true });
    listeners.push({ signal, listener });
  }
  return { signal: controller.signal, dispose };
}
