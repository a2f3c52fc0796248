import { errorText } from "../errors/error-text";
import { AgentCoreError } from "../errors/agent-core-error";
import { APICallError } from "../errors/api-call-error";

/**
 * Turns an error thrown by a provider SDK (`openai`, `@anthropic-ai/sdk`) into an `APICallError`.
 * Errors that are already agentcore errors pass through, and so does anything thrown while the
 * call's abort signal is aborted: the agent turns that into its `AbortError`.
 */
export function toAPICallError(
  error: unknown,
  context: { provider: string; modelId: string; abortSignal?: AbortSignal | undefined; apiKeyVariable?: string },
): unknown {
  if (context.abortSignal?.aborted) return error;
  if (AgentCoreError.isInstance(error)) return error;
  const sdkError = error as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown } | null;
  const statusCode = typeof sdkError?.status === "number" ? sdkError.status : undefined;
  const responseHeaders = headersToRecord(sdkError?.headers);
  const responseBody = sdkError?.error === undefined ? undefined : bodyToString(sdkError.error);
  const sdkMessage = errorText(error);
  const connectionFailure = statusCode === undefined && isConnectionError(error);
  const shouldRetryHeader = responseHeaders?.["x-should-retry"];
  const isRetryable =
    shouldRetryHeader === "true"
      ? true
      : shouldRetryHeader === "false"
        ? false
        : statusCode === undefined
          ? connectionFailure
          : statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
  const where = `${context.provider}/${context.modelId}`;
  let message: string;
  if (statusCode !== undefined) {
    message = `${where}: the API answered ${statusCode}: ${sdkMessage}`;
    if (statusCode === 401 && context.apiKeyVariable)
      message += ` Check ${context.apiKeyVariable} (or the apiKey option).`;
  } else if (connectionFailure) {
    message = `${where}: could not reach the API (${sdkMessage}). Check the base URL and the network.`;
  } else {
    message = `${where}: the call failed: ${sdkMessage}`;
  }
  return new APICallError({
    provider: context.provider,
    modelId: context.modelId,
    message,
    ...(statusCode === undefined ? {} : { statusCode }),
    isRetryable,
    ...(responseBody === undefined ? {} : { responseBody }),
    ...(responseHeaders === undefined ? {} : { responseHeaders }),
    cause: error,
  });
}

function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const name = (current as { constructor?: { name?: string } }).constructor?.name ?? "";
    if (/Connection|Timeout/.test(name)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function headersToRecord(headers: unknown): Record<string, string> | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const record: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === "function") {
    (headers as Headers).forEach((value, key) => {
      record[key.toLowerCase()] = value;
    });
    return record;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value === "string") record[key.toLowerCase()] = value;
  }
  return record;
}

function bodyToString(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  try {
    return JSON.stringify(body);
  } catch {
    return String(body);
  }
}
