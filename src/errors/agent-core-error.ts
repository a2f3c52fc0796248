const marker = "agentcore.error";
const symbol = Symbol.for(marker);

/**
 * Base class of every error agentcore throws. Branch on the subclass (`X.isInstance(error)`)
 * and its fields, never on `error.message`. `isInstance` works across duplicated installs of
 * the package because it checks a `Symbol.for` marker instead of the prototype chain.
 */
export class AgentCoreError extends Error {
  private readonly [symbol] = true;
  /**
   * A message safe to show the end user of a chat (no session ids, no provider bodies, nothing
   * about the server), or `undefined` when the error is not for their eyes. `streamText`'s UI
   * message stream shows it in its `error` chunk by default; other errors stay masked.
   */
  readonly publicMessage: string | undefined;

  constructor(options: { name: string; message: string; cause?: unknown; publicMessage?: string }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = options.name;
    this.publicMessage = options.publicMessage;
  }

  static isInstance(error: unknown): error is AgentCoreError {
    return AgentCoreError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, markerName: string): boolean {
    if (error == null || typeof error !== "object") return false;
    const markerSymbol = Symbol.for(markerName);
    return markerSymbol in error && (error as Record<symbol, unknown>)[markerSymbol] === true;
  }
}
