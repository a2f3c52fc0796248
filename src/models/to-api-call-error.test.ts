import { describe, expect, it } from "vitest";
import { APICallError } from "../errors/api-call-error";
import { MissingApiKeyError } from "../errors/missing-api-key-error";
import { toAPICallError } from "./to-api-call-error";

const context = { provider: "openai", modelId: "gpt-4o-mini" };

describe("toAPICallError", () => {
  it("passes errors through while the call's signal is aborted, and agentcore errors always", () => {
    const abort = new Error("aborted");
    expect(toAPICallError(abort, { ...context, abortSignal: AbortSignal.abort() })).toBe(abort);
    const missing = new MissingApiKeyError({ provider: "openai", environmentVariable: "OPENAI_API_KEY" });
    expect(toAPICallError(missing, context)).toBe(missing);
  });

  it("marks connection failures retryable and honours x-should-retry", () => {
    class APIConnectionError extends Error {}
    const connection = toAPICallError(new APIConnectionError("Connection error."), context) as APICallError;
    expect(APICallError.isInstance(connection)).toBe(true);
    expect(connection.statusCode).toBeUndefined();
    expect(connection.isRetryable).toBe(true);

    const status = (code: number, headers: Record<string, string> = {}) =>
      toAPICallError(
        Object.assign(new Error("x"), { status: code, headers: new Headers(headers), error: { message: "m" } }),
        {
          ...context,
          apiKeyVariable: "OPENAI_API_KEY",
        },
      ) as APICallError;
    expect(status(503).isRetryable).toBe(true);
    expect(status(503, { "x-should-retry": "false" }).isRetryable).toBe(false);
    expect(status(400, { "x-should-retry": "true" }).isRetryable).toBe(true);
    expect(status(401).message).toContain("OPENAI_API_KEY");
    expect(status(401).responseBody).toBe('{"message":"m"}');
  });
});
