import { APICallError } from "../../errors/api-call-error";

/** What the AI SDK's own `generateText` / `streamText` do when not told otherwise. */
const DEFAULT_MAX_RETRIES = 2;
const INITIAL_DELAY_MS = 2000;
const BACKOFF_FACTOR = 2;
/** A server's `retry-after` longer than this is not waited for; the backoff delay is used instead. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Calls `attempt` and retries it while it fails with a retryable `APICallError` (408, 409, 429,
 * 5xx, connection errors), up to `maxRetries` times, waiting what the server asked
 * (`retry-after-ms`, `retry-after`, up to a minute) or 2 s, 4 s, ... An AI SDK model does not
 * retry by itself (in the AI SDK, `generateText` does): for these models this is the one retry
 * layer, with the AI SDK's defaults. An abort stops the wait at once.
 */
export async function retryAISDKCall<T>(
  attempt: () => Promise<T>,
  options: { maxRetries?: number | undefined; abortSignal?: AbortSignal | undefined },
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= maxRetries || options.abortSignal?.aborted || !APICallError.isInstance(error) || !error.isRetryable)
        throw error;
      await sleep(retryDelay(error, retry), options.abortSignal);
    }
  }
}

function retryDelay(error: APICallError, retry: number): number {
  const backoff = INITIAL_DELAY_MS * BACKOFF_FACTOR ** retry;
  const headers = error.responseHeaders;
  if (!headers) return backoff;
  const milliseconds = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0 && milliseconds <= MAX_RETRY_AFTER_MS) return milliseconds;
  const retryAfter = headers["retry-after"];
  if (retryAfter === undefined) return backoff;
  const seconds = Number.parseFloat(retryAfter);
  const fromHeader = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  return Number.isFinite(fromHeader) && fromHeader >= 0 && fromHeader <= MAX_RETRY_AFTER_MS ? fromHeader : backoff;
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
