import { AbortError } from "../../errors/abort-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import { waitUnlessAborted } from "../wait-unless-aborted";
import type { RedisTransport } from "./redis-transport";

/** A request that got no answer within the store's `requestTimeoutMs`. */
export class RequestTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(
      `no answer within ${timeoutMs} ms (requestTimeoutMs): the server or the network is stuck. A write may still land; retrying it is safe (appends are idempotent by message id)`,
    );
    this.name = "RequestTimeoutError";
  }
}

/**
 * Waits for `promise` at most `timeoutMs` (0: no limit), then rejects with a
 * `RequestTimeoutError`; rejects with an `AbortError` naming the session as soon as `signal`
 * aborts. The request itself is not cancelled (the client owns it): the caller stops waiting.
 */
export function withinDeadline<T>(
  promise: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  sessionId: string | undefined,
): Promise<T> {
  const guarded = signal && sessionId !== undefined ? waitUnlessAborted(promise, signal, sessionId) : promise;
  if (timeoutMs <= 0) return guarded;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([guarded, timeout]).finally(() => clearTimeout(timer));
}

/** Runs one operation's requests (see `redisCall`). */
export type RedisCall = <T>(
  operation: string,
  sessionId: string | undefined,
  body: () => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

/**
 * How a Redis store runs one operation's requests: at most `requestTimeoutMs` (and no longer than
 * `signal` lets it); any failure but a typed agentcore error becomes a `StoreError` naming the
 * operation and the session.
 */
export function redisCall(store: string, transport: RedisTransport, requestTimeoutMs: number): RedisCall {
  return async (operation, sessionId, body, signal) => {
    try {
      return await withinDeadline(body(), requestTimeoutMs, signal, sessionId);
    } catch (error) {
      if (StoreError.isInstance(error) || InvalidArgumentError.isInstance(error) || AbortError.isInstance(error))
        throw error;
      const session = sessionId === undefined ? "" : ` of session "${sessionId}"`;
      throw new StoreError({
        store,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `${transport.serverName} failed during ${operation}${session}: ${transport.errorText(error)}`,
        cause: error,
      });
    }
  };
}
