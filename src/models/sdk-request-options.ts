import type { LanguageModelCall } from "./language-model";

/**
 * The per-request options both official SDK clients (`openai`, `@anthropic-ai/sdk`) take beside
 * the body: the call's abort signal and its retry count (the SDK's own default when unset).
 */
export function sdkRequestOptions(call: LanguageModelCall): { signal?: AbortSignal; maxRetries?: number } {
  return {
    ...(call.abortSignal ? { signal: call.abortSignal } : {}),
    ...(call.maxRetries === undefined ? {} : { maxRetries: call.maxRetries }),
  };
}
