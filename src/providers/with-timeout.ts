import { MemoryProviderError } from "../errors/memory-provider-error";

/**
 * Runs `task` with a signal that aborts when `parent` aborts or after `ms`; rejects with a
 * `MemoryProviderError` at the timeout even if the task ignores its signal (a late answer is dropped).
 */
export async function withTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  options: { ms: number; provider: string; operation: string; parent?: AbortSignal },
): Promise<T> {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(options.parent?.reason);
  if (options.parent?.aborted) controller.abort(options.parent.reason);
  else options.parent?.addEventListener("abort", onParentAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new MemoryProviderError({
        provider: options.provider,
        operation: options.operation,
        message: `${options.provider} ${options.operation} timed out after ${options.ms} ms.`,
      });
      controller.abort(error);
      reject(error);
    }, options.ms);
  });
  try {
    const running = Promise.resolve().then(() => task(controller.signal));
    running.catch(() => {});
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
    options.parent?.removeEventListener("abort", onParentAbort);
  }
}
