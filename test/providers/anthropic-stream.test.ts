// The Anthropic adapter's stream at its edges, with the official SDK against the loopback server:
// an `error` event mid-stream, a body that stops or is cut off, an abort while the body is read,
// and bodies read in pieces cut at every byte (inside multi-byte characters too).
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { AbortError } from "../../src/errors/abort-error";
import { APICallError } from "../../src/errors/api-call-error";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { LanguageModelStreamPart } from "../../src/models/language-model";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import type { ServerSentEvent } from "../servers/fake-llm-server";
import { anthropicStreamEvents } from "../servers/wire-formats";

startFakeLlmServerPerTest();

const model = (settings: { fetch?: typeof globalThis.fetch } = {}) =>
  createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url, maxRetries: 0, ...settings })("claude-sonnet-5-5");
const call = (abortSignal?: AbortSignal) => ({
  messages: [{ role: "user" as const, content: "Hi" }],
  tools: [],
  ...(abortSignal ? { abortSignal } : {}),
});

async function readParts(stream: AsyncIterable<LanguageModelStreamPart>): Promise<LanguageModelStreamPart[]> {
  const parts: LanguageModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const textOf = (parts: LanguageModelStreamPart[]) =>
  parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");

/** The events of an answer up to (not including) the first event of `type`, or the `count` first. */
function eventsBefore(
  events: ServerSentEvent[],
  stop: (event: ServerSentEvent, index: number) => boolean,
): ServerSentEvent[] {
  const end = events.findIndex(stop);
  return end === -1 ? events : events.slice(0, end);
}

/** A `fetch` that hands the SDK the body in pieces of the sizes `size(index)` gives, one piece a read. */
function fetchInPieces(size: (index: number) => number): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let offset = 0;
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        const end = Math.min(bytes.length, offset + Math.max(1, size(index++)));
        controller.enqueue(bytes.slice(offset, end));
        offset = end;
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

describe("anthropic stream edges (official SDK, loopback server)", () => {
  it("fails on an `error` event mid-stream (overloaded_error) with an APICallError carrying the SDK's APIError", async () => {
    const events = eventsBefore(
      anthropicStreamEvents({ text: "Hello there, how are you?" }),
      (_event, index) => index === 5,
    );
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    server.enqueue({ kind: "sse", events: [...events, { event: "error", data: overloaded }] });
    const stream = new Agent({ model: model() }).stream("Hi");
    const received: string[] = [];
    const error = (await (async () => {
      for await (const delta of stream.textStream) received.push(delta);
    })().catch((caught: unknown) => caught)) as APICallError;
    await expect(stream.response).rejects.toBe(error);

    expect(received).toEqual(["Hello", " ther"]);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.provider).toBe("anthropic");
    expect(error.statusCode).toBeUndefined();
    expect(error.isRetryable).toBe(false);
    expect(error.message).toBe(`anthropic/claude-sonnet-5-5: the call failed: ${JSON.stringify(overloaded)}`);
    expect(JSON.parse(error.responseBody!)).toEqual(overloaded);
    expect(error.cause).toBeInstanceOf(Anthropic.APIError);
    expect((error.cause as InstanceType<typeof Anthropic.APIError>).type).toBe("overloaded_error");
  });

  it("ends a body that stops between events (no message_stop) with what came: text, the cut call, finish", async () => {
    const events = anthropicStreamEvents({
      text: "Partial",
      toolCalls: [{ id: "toolu_cut", name: "get_weather", arguments: { city: "Lima" } }],
    });
    // Up to the second input_json_delta chunk of the call: its input is cut off mid-JSON.
    let jsonChunks = 0;
    server.enqueue({
      kind: "sse",
      events: eventsBefore(
        events,
        (event) =>
          (event.data as { delta?: { type?: string } }).delta?.type === "input_json_delta" && ++jsonChunks === 3,
      ),
    });
    const parts = await readParts(model().doStream(call()));
    expect(textOf(parts)).toBe("Partial");
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      { type: "tool-call", toolCall: { id: "toolu_cut", name: "get_weather", arguments: {} } },
    ]);
    expect(parts.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
      response: { id: "msg_test", modelId: "claude-sonnet-5-5" },
    });
  });

  it("fails with an APICallError when the connection drops mid-body, after the text read so far", async () => {
    server.enqueue({
      kind: "sse",
      events: eventsBefore(
        anthropicStreamEvents({ text: "Cut off in the middle" }),
        (event) => event.event === "content_block_stop",
      ),
      cut: true,
    });
    const parts: LanguageModelStreamPart[] = [];
    const error = (await (async () => {
      for await (const part of model().doStream(call())) parts.push(part);
    })().catch((caught: unknown) => caught)) as APICallError;
    expect(textOf(parts)).toBe("Cut off in the middle");
    expect(parts.some((part) => part.type === "finish")).toBe(false);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toMatch(/^anthropic\/claude-sonnet-5-5: /);
  });

  it("stops at once when the call's signal aborts mid-body, fails with the abort, and closes the request", async () => {
    server.enqueue({
      kind: "sse",
      events: anthropicStreamEvents({ text: "A long answer that never finishes." }).slice(0, 5),
      hang: true,
    });
    const controller = new AbortController();
    const parts: LanguageModelStreamPart[] = [];
    const outcome = await (async () => {
      for await (const part of model().doStream(call(controller.signal))) {
        parts.push(part);
        controller.abort();
      }
      return "ended";
    })().catch((caught: unknown) => caught);
    expect(parts).toEqual([{ type: "text-delta", delta: "A lon" }]);
    // The abort itself, passed through (the agent makes it its AbortError), not a `finish` as if the answer were whole.
    expect((outcome as Error).name).toBe("AbortError");
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
  });

  it("aborts a run mid-body: its textStream and its response reject with AbortError", async () => {
    server.enqueue({
      kind: "sse",
      events: anthropicStreamEvents({ text: "A long answer that never finishes." }).slice(0, 5),
      hang: true,
    });
    const controller = new AbortController();
    const stream = new Agent({ model: model() }).stream({ input: "Talk", signal: controller.signal });
    const reading = (async () => {
      for await (const _delta of stream.textStream) controller.abort();
    })();
    await expect(reading).rejects.toSatisfy(AbortError.isInstance);
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);
  });

  const multiByte = {
    text: "Grüße aus Zürich — 東京は晴れ 🌤️, très bien.",
    toolCalls: [
      { id: "toolu_utf8", name: "get_weather", arguments: { city: "Zürich", note: "東京 🌧️ «ça va»", days: [1, 2] } },
    ],
  };

  it.each([
    ["one byte", () => 1],
    ["two bytes", () => 2],
    ["three bytes", () => 3],
    ["pseudo-random sizes 1–40", (index: number) => 1 + ((index * 7919 + 13) % 40)],
  ])(
    "reads text and a tool call's input split across reads of %s (inside multi-byte characters too)",
    async (_name, size) => {
      server.enqueue({ kind: "sse", events: anthropicStreamEvents(multiByte) });
      const parts = await readParts(model({ fetch: fetchInPieces(size) }).doStream(call()));
      expect(textOf(parts)).toBe(multiByte.text);
      const deltas = parts.filter((part) => part.type === "tool-call-delta");
      expect(deltas.map((part) => part.argumentsDelta).join("")).toBe(
        JSON.stringify(multiByte.toolCalls[0]!.arguments),
      );
      expect(parts.filter((part) => part.type === "tool-call")).toEqual([
        {
          type: "tool-call",
          toolCall: { id: "toolu_utf8", name: "get_weather", arguments: multiByte.toolCalls[0]!.arguments },
        },
      ]);
      expect(parts.at(-1)).toMatchObject({
        type: "finish",
        finishReason: "tool-calls",
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      });
    },
  );
});
