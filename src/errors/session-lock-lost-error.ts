import { StoreError } from "./store-error";

const marker = "agentcore.error.SessionLockLostError";
const symbol = Symbol.for(marker);

/**
 * A run's write was refused because it no longer holds its session's lock: the lease ran out
 * (the process stalled, its connection was cut) and another run took the session. Nothing of
 * this run was written after the takeover; retry the run. `sessionId` names the session and
 * `operation` the refused write.
 */
export class SessionLockLostError extends StoreError {
  private readonly [symbol] = true;
  declare readonly sessionId: string;

  constructor(options: { store: string; operation: string; sessionId: string; cause?: unknown }) {
    super({
      store: options.store,
      operation: options.operation,
      sessionId: options.sessionId,
      message: `The lock on session "${options.sessionId}" was lost (its lease expired and another run took the session), so ${options.operation} was refused: nothing of this run was written after the takeover. Retry the run.`,
      cause: options.cause,
    });
    this.name = "SessionLockLostError";
  }

  static override isInstance(error: unknown): error is SessionLockLostError {
    return StoreError.hasMarker(error, marker);
  }
}
