import type { StoreBackend } from "../stores/store-backend";

/** The reason a stopped run's signal fires with. */
export class RunStoppedReason extends Error {
  constructor(sessionId: string) {
    super(`The run of session "${sessionId}" was stopped.`);
    this.name = "RunStoppedReason";
  }
}

/**
 * A run's stop (`agent.stop`, `stopRun`): the run's abort signal, which fires on the caller's
 * signal or on a stop asked for its session from anywhere (`StoreBackend.stopSignals`), and what a
 * stop keeps of the call it interrupted (the text streamed so far). A stop asked once the run is
 * finishing (its last append under way) changes nothing.
 */
export class RunStop {
  private readonly controller = new AbortController();
  private detachCaller: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  private stopRequested = false;
  private closed = false;
  /** The text the interrupted model call had streamed (none once a call completed). */
  partialText = "";
  /** Rejects when a stop is asked (never otherwise): what `race` races against. */
  private readonly stopped: Promise<never>;
  private rejectStopped: ((reason: unknown) => void) | undefined;

  constructor(
    private readonly sessionId: string,
    caller: AbortSignal | undefined,
  ) {
    this.stopped = new Promise<never>((_, reject) => {
      this.rejectStopped = reject;
    });
    // Nobody awaits it unless a race does.
    this.stopped.catch(() => {});
    if (caller?.aborted) this.controller.abort(caller.reason);
    else if (caller) {
      const forward = () => this.controller.abort(caller.reason);
      caller.addEventListener("abort", forward, { once: true });
      this.detachCaller = () => caller.removeEventListener("abort", forward);
    }
  }

  /** The run's abort signal: the caller's, or a stop. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A stop was asked (not the caller's abort) before the run began to finish. */
  get requested(): boolean {
    return this.stopRequested;
  }

  /** Starts listening to stops asked for the session through the store; resolves once listening. */
  async watch(store: StoreBackend): Promise<void> {
    this.unwatch = await store.stopSignals.watchStop(this.sessionId, () => this.stop());
  }

  /** Stops the run: its signal fires (the model request is aborted, no further tool call starts). */
  stop(): void {
    if (this.closed || this.controller.signal.aborted) return;
    this.stopRequested = true;
    const reason = new RunStoppedReason(this.sessionId);
    this.rejectStopped?.(reason);
    this.controller.abort(reason);
  }

  /** The run is finishing (or settled): a stop asked from now on changes nothing. */
  finishing(): void {
    this.closed = true;
  }

  /** Stops listening (the run settled). Safe twice. */
  dispose(): void {
    this.closed = true;
    this.unwatch?.();
    this.unwatch = undefined;
    this.detachCaller?.();
    this.detachCaller = undefined;
  }

  /**
   * `promise`, or a rejection at once when a stop is asked first: a tool or a model stream that
   * ignores its abort signal does not hold the stopped run (what it gives later is dropped).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.stopRequested) {
      promise.catch(() => {});
      return this.stopped;
    }
    return Promise.race([promise, this.stopped]);
  }

  /** The parts of `stream`, each raced against a stop (`race`); the stream is closed when a stop ends it. */
  async *guard<Part>(stream: AsyncIterable<Part>): AsyncGenerator<Part, void> {
    const iterator = stream[Symbol.asyncIterator]();
    let done = false;
    try {
      for (;;) {
        const next = await this.race(iterator.next());
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // Closed without waiting: a stream that ignores its signal may never answer.
      if (!done) iterator.return?.()?.catch?.(() => {});
    }
  }
}
