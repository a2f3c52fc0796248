// Failure scenarios the provider adapter tests run alike against each wire format on the
// loopback server: an HTTP error turned into a typed error, and an abort mid-stream or while
// the request waits for an answer.
import { expect, vi } from "vitest";
import type { Agent } from "../../src/agent/agent";
import { AbortError } from "../../src/errors/abort-error";
import { APICallError } from "../../src/errors/api-call-error";
import type { FakeLlmServer } from "../servers/fake-llm-server";

/** What `agent.run(input)` rejected with (its result if it resolved, which the caller's checks then reject). */
export function runFailure<T = APICallError>(agent: Agent, input = "Hi"): Promise<T> {
  return agent.run(input).catch((caught: unknown) => caught) as Promise<T>;
}

/** Checks that `error` is an APICallError with this status and retryability. */
export function expectAPICallError(error: unknown, statusCode: number, isRetryable: boolean): void {
  expect(APICallError.isInstance(error)).toBe(true);
  expect((error as APICallError).statusCode).toBe(statusCode);
  expect((error as APICallError).isRetryable).toBe(isRetryable);
}

/**
 * Streams `input` and aborts at the first text delta: the text stream must reject with an
 * AbortError. Returns the stream (for its `response`) and the deltas read before the abort.
 */
export async function abortAtFirstDelta(agent: Agent, input: string) {
  const controller = new AbortController();
  const stream = agent.stream({ input, signal: controller.signal });
  const received: string[] = [];
  await expect(
    (async () => {
      for await (const delta of stream.textStream) {
        received.push(delta);
        controller.abort();
      }
    })(),
  ).rejects.toSatisfy(AbortError.isInstance);
  return { stream, received };
}

/**
 * Runs against a server that never answers and aborts once the server holds the request: the
 * run must reject with an AbortError and the HTTP request be closed.
 */
export async function abortWhileWaiting(server: FakeLlmServer, agent: Agent): Promise<void> {
  server.enqueue({ kind: "hang" });
  const controller = new AbortController();
  const run = agent.run({ input: "Hi", signal: controller.signal });
  await vi.waitFor(() => expect(server.requests).toHaveLength(1));
  controller.abort();
  await expect(run).rejects.toSatisfy(AbortError.isInstance);
  await server.waitForEarlyClose();
}
