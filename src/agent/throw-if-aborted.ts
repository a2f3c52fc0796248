import { AbortError } from "../errors/abort-error";

/** Throws an `AbortError` when the run's signal has fired. */
export function throwIfAborted(run: {
  readonly sessionId: string;
  readonly abortSignal: AbortSignal | undefined;
}): void {
  if (run.abortSignal?.aborted) throw new AbortError({ sessionId: run.sessionId, cause: run.abortSignal.reason });
}
