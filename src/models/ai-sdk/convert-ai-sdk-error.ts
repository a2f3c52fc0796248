import { AgentCoreError } from "../../errors/agent-core-error";
import { APICallError } from "../../errors/api-call-error";
import { errorText } from "../../errors/error-text";
import { MissingApiKeyError } from "../../errors/missing-api-key-error";

/** The AI SDK marks its errors with `Symbol.for("vercel.ai.error.<name>")` (works across installs). */
function isAISDKError(error: unknown, name: string): boolean {
  if (error === null || typeof error !== "object") return false;
  return (error as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true;
}

/**
 * Turns an error thrown by an AI SDK model (or put in its stream as an `error` part) into
 * agentcore's: the AI SDK's `APICallError` becomes an `APICallError` with its status, retryability,
 * response body and headers; a `LoadAPIKeyError` that names the variable becomes a
 * `MissingApiKeyError`; anything else an `APICallError` without status (not retryable). agentcore
 * errors pass through, and so does anything thrown while the call's abort signal is aborted: the
 * agent turns that into its `AbortError`.
 */
export function convertAISDKError(
  error: unknown,
  context: { provider: string; modelId: string; abortSignal?: AbortSignal | undefined },
): unknown {
  if (context.abortSignal?.aborted) return error;
  if (AgentCoreError.isInstance(error)) return error;
  const where = `${context.provider}/${context.modelId}`;
  const sdkMessage = errorText(error);
  if (isAISDKError(error, "AI_LoadAPIKeyError")) {
    const environmentVariable = /\b[A-Z][A-Z0-9_]*_API_KEY\b/.exec(sdkMessage)?.[0];
    if (environmentVariable) {
      return new MissingApiKeyError({
        provider: context.provider,
        environmentVariable,
        factory: "the provider's create function, e.g. createOpenAI",
      });
    }
  }
  if (isAISDKError(error, "AI_APICallError")) {
    const sdkError = error as {
      statusCode?: unknown;
      isRetryable?: unknown;
      responseBody?: unknown;
      responseHeaders?: unknown;
    };
    const statusCode = typeof sdkError.statusCode === "number" ? sdkError.statusCode : undefined;
    const responseHeaders = stringRecord(sdkError.responseHeaders);
    return new APICallError({
      provider: context.provider,
      modelId: context.modelId,
      message:
        statusCode === undefined
          ? `${where}: could not reach the API (${sdkMessage}). Check the base URL and the network.`
          : `${where}: the API answered ${statusCode}: ${sdkMessage}`,
      ...(statusCode === undefined ? {} : { statusCode }),
      isRetryable: sdkError.isRetryable === true,
      ...(typeof sdkError.responseBody === "string" ? { responseBody: sdkError.responseBody } : {}),
      ...(responseHeaders ? { responseHeaders } : {}),
      cause: error,
    });
  }
  return new APICallError({
    provider: context.provider,
    modelId: context.modelId,
    message: `${where}: the call failed: ${sdkMessage}`,
    isRetryable: false,
    cause: error,
  });
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const record: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === "string") record[key.toLowerCase()] = entry;
  return record;
}
