import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { APICallError } from "../errors/api-call-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { streamText } from "./stream-text";
import type { UIMessageChunk } from "./ui-message-stream";

// What a chat page shows when a turn fails, and what the server log gets: an agentcore error's
// publicMessage in the UI stream's error chunk (other errors masked), and each failure logged once.

async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
    .map((event) => JSON.parse(event.slice("data: ".length)) as UIMessageChunk);
}

const unreachable = () =>
  new APICallError({
    provider: "anthropic",
    modelId: "claude-x",
    message: "Connection error: connect ECONNREFUSED 10.0.0.7:443 (account acme-prod)",
    isRetryable: true,
  });

const user = [{ role: "user" as const, content: "Hello" }];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("streamText errors in the UI stream", () => {
  it("shows an agentcore error's publicMessage, never the provider's message or body", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const reachable = streamText({
      model: new MockLanguageModel({ responses: [{ error: unreachable() }] }),
      messages: user,
    });
    expect((await chunksOf(reachable.toUIMessageStreamResponse())).at(-1)).toEqual({
      type: "error",
      errorText: "The model could not be reached. Try again in a moment.",
    });

    // A server error the provider says not to retry is still "could not be reached" to the user.
    const down = new APICallError({
      provider: "anthropic",
      modelId: "claude-x",
      message: "503 overloaded",
      statusCode: 503,
      isRetryable: false,
    });
    const downChunks = await chunksOf(
      streamText({
        model: new MockLanguageModel({ responses: [{ error: down }] }),
        messages: user,
      }).toUIMessageStreamResponse(),
    );
    expect(downChunks.at(-1)).toEqual({
      type: "error",
      errorText: "The model could not be reached. Try again in a moment.",
    });

    const refused = new APICallError({
      provider: "openai",
      modelId: "gpt-x",
      message: "401 Incorrect API key provided: sk-live-1234",
      statusCode: 401,
      isRetryable: false,
      responseBody: '{"error":{"message":"Incorrect API key provided: sk-live-1234"}}',
    });
    const chunks = await chunksOf(
      streamText({
        model: new MockLanguageModel({ responses: [{ error: refused }] }),
        messages: user,
      }).toUIMessageStreamResponse(),
    );
    expect(chunks.at(-1)).toEqual({ type: "error", errorText: "The model could not answer this request." });
    expect(JSON.stringify(chunks)).not.toContain("sk-live");
  });

  it("masks any other error, and a caller's onError still decides the text", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = () => new MockLanguageModel({ responses: [{ error: new Error("db password wrong") }] });
    expect(
      (await chunksOf(streamText({ model: failing(), messages: user }).toUIMessageStreamResponse())).at(-1),
    ).toEqual({ type: "error", errorText: "An error occurred." });
    const custom = streamText({
      model: new MockLanguageModel({ responses: [{ error: unreachable() }] }),
      messages: user,
    }).toUIMessageStreamResponse({ onError: () => "Custom text" });
    expect((await chunksOf(custom)).at(-1)).toEqual({ type: "error", errorText: "Custom text" });
  });

  it("tells the user a tool call awaits their approval when they send a new message", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const store = new InMemoryStore();
    const tools = {
      book_table: tool({
        description: "Book",
        parameters: z.object({ guests: z.number() }),
        needsApproval: true,
        execute: async () => ({ booked: true }),
      }),
    };
    const asking = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "call-1", name: "book_table", arguments: { guests: 2 } }] }],
    });
    // pendingApprovals "reject": a new message is refused while a call awaits its answer (the default denies it).
    const common = { memoryStore: store, sessionId: "s-approval", tools, pendingApprovals: "reject" as const };
    await streamText({ ...common, model: asking, messages: [{ role: "user", content: "Book for 2" }] }).response;

    const next = streamText({
      ...common,
      model: new MockLanguageModel({ responses: [{ text: "unused" }] }),
      messages: [{ role: "user", content: "Something else" }],
    });
    expect((await chunksOf(next.toUIMessageStreamResponse())).at(-1)).toEqual({
      type: "error",
      errorText: "A tool call is waiting for your approval: approve or deny it, then send your message.",
    });
  });
});

describe("streamText errors in the server log", () => {
  it("logs a failure once by default, however many of the result's streams were read", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const error = unreachable();
    const result = streamText({ model: new MockLanguageModel({ responses: [{ error }] }), messages: user });
    await chunksOf(result.toUIMessageStreamResponse());
    await expect(result.text).rejects.toBe(error);
    await expect(result.response).rejects.toBe(error);
    await new Promise((resolve) => setImmediate(resolve)); // the response's rejection handlers have run
    expect(logged.mock.calls).toEqual([["[agentcore] streamText failed:", error]]);
  });

  it("gives the error to the caller's onError instead of the log, and logs no abort", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const seen: unknown[] = [];
    const error = unreachable();
    const result = streamText({
      model: new MockLanguageModel({ responses: [{ error }] }),
      messages: user,
      onError: (failure) => seen.push(failure),
    });
    await chunksOf(result.toUIMessageStreamResponse());
    await result.response.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([error]);

    const controller = new AbortController();
    controller.abort();
    const aborted = streamText({
      model: new MockLanguageModel({ responses: [{ text: "never" }] }),
      messages: user,
      abortSignal: controller.signal,
    });
    expect((await chunksOf(aborted.toUIMessageStreamResponse())).at(-1)).toEqual({ type: "abort" });
    await aborted.response.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).not.toHaveBeenCalled();
  });
});
