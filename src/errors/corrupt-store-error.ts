import { StoreError } from "./store-error";

const marker = "agentcore.error.CorruptStoreError";
const symbol = Symbol.for(marker);

/**
 * A store's data on disk does not parse (a truncated or hand-edited file). The bad file is
 * never read as empty: it is moved aside to `keptAt`, and the store refuses to go on until it
 * is reopened. Inspect or restore the kept file, then create the store again. Server stores
 * raise it too for a session's corrupt metadata: `path` is then the key or table, and
 * `sessionId` the session.
 */
export class CorruptStoreError extends StoreError {
  private readonly [symbol] = true;
  /** The file that did not parse. */
  readonly path: string;
  /** Where the bad file was moved, when it could be moved. */
  readonly keptAt: string | undefined;

  constructor(options: {
    store: string;
    operation: string;
    path: string;
    keptAt?: string;
    sessionId?: string;
    message: string;
    cause?: unknown;
  }) {
    super({
      store: options.store,
      operation: options.operation,
      message: options.message,
      cause: options.cause,
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    });
    this.name = "CorruptStoreError";
    this.path = options.path;
    this.keptAt = options.keptAt;
  }

  static override isInstance(error: unknown): error is CorruptStoreError {
    return StoreError.hasMarker(error, marker);
  }
}
