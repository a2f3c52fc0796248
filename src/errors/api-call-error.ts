import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.APICallError";
const symbol = Symbol.for(marker);

/**
 * A call to a model provider's API failed: an HTTP error status, a connection failure, or a
 * response the adapter could not use. The provider SDK has already retried what it could
 * (`maxRetries`, the one retry layer); `isRetryable` says whether trying again later could help
 * (rate limits, timeouts, 5xx, connection errors). The SDK's own error is the `cause`.
 */
export class APICallError extends AgentCoreError {
  private readonly [symbol] = true;
  /** Provider id, e.g. `"openai"`, `"anthropic"`, `"ollama"`. */
  readonly provider: string;
  /** Model id as sent to the provider. */
  readonly modelId: string;
  /** HTTP status of the failed response; `undefined` when no response came (connection error). */
  readonly statusCode: number | undefined;
  /** Whether a later retry could succeed (408, 409, 429, 5xx, connection errors). */
  readonly isRetryable: boolean;
  /** The response body (JSON text when the provider sent JSON), when there was one. */
  readonly responseBody: string | undefined;
  /** The response headers, lower-cased, when there was a response. */
  readonly responseHeaders: Record<string, string> | undefined;

  constructor(options: {
    provider: string;
    modelId: string;
    message: string;
    statusCode?: number;
    isRetryable: boolean;
    responseBody?: string;
    responseHeaders?: Record<string, string>;
    cause?: unknown;
  }) {
    super({
      name: "APICallError",
      message: options.message,
      cause: options.cause,
      // Never the provider's body or status: those can name the account, the key or the deployment.
      // No response, a server error or a retryable status: the model is out of reach for now.
      publicMessage:
        options.isRetryable || options.statusCode === undefined || options.statusCode >= 500
          ? "The model could not be reached. Try again in a moment."
          : "The model could not answer this request.",
    });
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable;
    this.responseBody = options.responseBody;
    this.responseHeaders = options.responseHeaders;
  }

  static override isInstance(error: unknown): error is APICallError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
