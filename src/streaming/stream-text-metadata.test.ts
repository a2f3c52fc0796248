// Message metadata in the UI stream: the message `useChat` folds from our stream (the AI SDK's own
// `readUIMessageStream`, ai 6 and ai 7) has the metadata `convertToUIMessages` gives the same message
// after a reload from the store: agentcore's model, usage, finish reason and duration, and the app's fields.
import * as ai6 from "ai";
import type { UIMessage as AiUIMessage, UIMessageChunk as AiUIMessageChunk } from "ai";
import * as ai7 from "ai-v7";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { convertToUIMessages } from "../ui/convert-to-ui-messages";
import { streamText } from "./stream-text";

/** One `ai` line's reader of the UI stream: its SSE parser and chunk schema, and its fold. */
interface Reader {
  parse: (options: never) => unknown;
  schema: unknown;
  read: (options: never) => unknown;
}

const readers: [string, Reader][] = [
  ["ai 6", { parse: ai6.parseJsonEventStream, schema: ai6.uiMessageChunkSchema, read: ai6.readUIMessageStream }],
  ["ai 7", { parse: ai7.parseJsonEventStream, schema: ai7.uiMessageChunkSchema, read: ai7.readUIMessageStream }],
];

const weather = tool({
  description: "Weather",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: "4°C" }),
});

/** A weather answer in two steps: a tool call, then the text. */
function twoStepModel() {
  return new MockLanguageModel({
    provider: "acme",
    modelId: "acme-large",
    responses: [
      {
        toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Oslo" } }],
        usage: { inputTokens: 20, outputTokens: 5 },
      },
      { text: "Oslo: 4°C.", usage: { inputTokens: 30, outputTokens: 7 } },
    ],
  });
}

/** The response's chunks, parsed with the AI SDK's own schema (a chunk it rejects fails the test). */
async function chunksOf(response: Response, reader: Reader): Promise<AiUIMessageChunk[]> {
  const chunks: AiUIMessageChunk[] = [];
  for await (const result of reader.parse({ stream: response.body!, schema: reader.schema } as never) as AsyncIterable<{
    success: boolean;
    value: AiUIMessageChunk;
    error?: unknown;
  }>) {
    if (!result.success) throw new Error(`chunk rejected by the AI SDK schema: ${String(result.error)}`);
    chunks.push(result.value);
  }
  return chunks;
}

async function fold(chunks: AiUIMessageChunk[], reader: Reader): Promise<AiUIMessage> {
  const stream = new ReadableStream<AiUIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: AiUIMessage | undefined;
  for await (const snapshot of reader.read({ stream, terminateOnError: true } as never) as AsyncIterable<AiUIMessage>)
    message = snapshot;
  return message!;
}

describe.each(readers)("message metadata in the UI stream, folded by %s's readUIMessageStream", (_line, reader) => {
  it("gives the streamed message the metadata a reload gives it: model, summed usage, last finish reason, app fields", async () => {
    const store = new InMemoryStore();
    const result = streamText({
      model: twoStepModel(),
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      sessionId: "s",
      memoryStore: store,
      tools: { get_weather: weather },
      messageMetadata: { plan: "pro", tags: ["weather"] },
    });
    const chunks = await chunksOf(result.toUIMessageStreamResponse(), reader);
    // The app's fields at once, then the folded metadata after each step.
    expect(chunks[0]).toMatchObject({ type: "start", messageMetadata: { plan: "pro", tags: ["weather"] } });
    expect(chunks.filter((chunk) => chunk.type === "message-metadata")).toHaveLength(2);
    const streamed = await fold(chunks, reader);

    const reloaded = convertToUIMessages(await store.getMessages("s"));
    expect(reloaded.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(streamed.id).toBe(reloaded[1]!.id);
    expect(streamed.metadata).toEqual(reloaded[1]!.metadata);
    expect(streamed.metadata).toEqual({
      plan: "pro",
      tags: ["weather"],
      agentcore: {
        ids: expect.any(Array),
        timestamps: expect.any(Array),
        provider: "acme",
        modelId: "acme-large",
        finishReason: "stop",
        usage: { inputTokens: 50, outputTokens: 12, totalTokens: 62 },
        durationMs: expect.any(Number),
        steps: [
          {
            provider: "acme",
            modelId: "acme-large",
            usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 },
            finishReason: "tool-calls",
            durationMs: expect.any(Number),
          },
          {
            provider: "acme",
            modelId: "acme-large",
            usage: { inputTokens: 30, outputTokens: 7, totalTokens: 37 },
            finishReason: "stop",
            durationMs: expect.any(Number),
          },
        ],
      },
    });
    // The ids are the stored ones: the two assistant messages and the tool result between them.
    expect((streamed.metadata as { agentcore: { ids: string[] } }).agentcore.ids).toEqual(
      (await store.getMessages("s")).slice(1).map((message) => message.id),
    );
  });

  it("gives a retried request's replay the stored metadata, not a new one", async () => {
    const store = new InMemoryStore();
    const request = () =>
      streamText({
        model: new MockLanguageModel({ responses: [{ text: "Hello!", usage: { inputTokens: 3, outputTokens: 2 } }] }),
        messages: [{ id: "u-1", role: "user", content: "Hi" }],
        sessionId: "s",
        memoryStore: store,
        messageMetadata: { requestId: "r-1" },
      });
    const first = await fold(await chunksOf(request().toUIMessageStreamResponse(), reader), reader);
    const replayed = await fold(await chunksOf(request().toUIMessageStreamResponse(), reader), reader);
    const reloaded = convertToUIMessages(await store.getMessages("s"));
    expect(replayed.metadata).toEqual(reloaded[1]!.metadata);
    expect(first.metadata).toEqual(reloaded[1]!.metadata);
    expect(reloaded[1]!.metadata).toMatchObject({
      requestId: "r-1",
      agentcore: { usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 }, finishReason: "stop" },
    });
  });
});

describe("streamText's messageMetadata", () => {
  it("is refused with an InvalidArgumentError naming it before anything runs, when it is not JSON or claims agentcore's key", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const call = (messageMetadata: unknown) => () =>
      streamText({
        model,
        messages: [{ role: "user", content: "Hi" }],
        sessionId: "s",
        memoryStore: store,
        messageMetadata: messageMetadata as Record<string, unknown>,
      });
    for (const bad of [{ at: new Date() }, { agentcore: { modelId: "forged" } }, { n: Number.NaN }, "text"]) {
      expect(call(bad)).toThrow(InvalidArgumentError);
      try {
        call(bad)();
      } catch (error) {
        expect((error as InvalidArgumentError).argument).toBe("messageMetadata");
      }
    }
    expect(model.calls).toHaveLength(0);
    expect(await store.getMessages("s")).toEqual([]);
  });
});
