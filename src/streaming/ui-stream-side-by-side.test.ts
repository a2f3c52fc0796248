import * as ai6 from "ai";
import type { UIMessage as AiUIMessage, UIMessageChunk as AiUIMessageChunk } from "ai";
import * as ai6Test from "ai/test";
import * as ai7 from "ai-v7";
import * as ai7Test from "ai-v7/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool } from "../tools/tool";
import { streamText } from "./stream-text";
import { toUIMessageChunks } from "./ui-message-stream";

// Our UI message stream, folded by the AI SDK's own `readUIMessageStream`, gives the same UI
// message parts as the AI SDK's own `streamText` on the same model output: on ai 6 (a spec v3
// mock model) and on ai 7 (`ai-v7`, a spec v4 mock model; its UI stream made by the stateless
// `toUIMessageStream({ stream })` that ai 7 moves to).

/** A model script: `doStream` answers, one a call. */
type Script = { doStream: { stream: ReadableStream<unknown> } | { stream: ReadableStream<unknown> }[] };

/** One `ai` line: its streamText, tool, step limit, UI stream, fold and mock model. */
interface AiLine {
  line: string;
  model: (script: Script) => any;
  streamText: (options: Record<string, unknown>) => ReadableStream<AiUIMessageChunk>;
  tool: (definition: { inputSchema: z.ZodType; execute: (input: any) => unknown }) => unknown;
  stepLimit: (steps: number) => unknown;
  readUIMessageStream: (options: {
    stream: ReadableStream<AiUIMessageChunk>;
    terminateOnError: boolean;
  }) => AsyncIterable<AiUIMessage>;
}

const aiLines: AiLine[] = [
  {
    line: "ai 6",
    model: (script) => new ai6Test.MockLanguageModelV3(script as never),
    streamText: (options) => ai6.streamText(options as never).toUIMessageStream(),
    tool: (definition) => ai6.tool(definition as never),
    stepLimit: (steps) => ai6.stepCountIs(steps),
    readUIMessageStream: (options) => ai6.readUIMessageStream(options),
  },
  {
    line: "ai 7",
    model: (script) => new ai7Test.MockLanguageModelV4(script as never),
    streamText: (options) =>
      ai7.toUIMessageStream({
        stream: ai7.streamText(options as never).stream,
      }) as unknown as ReadableStream<AiUIMessageChunk>,
    tool: (definition) => ai7.tool(definition as never),
    stepLimit: (steps) => ai7.isStepCount(steps),
    readUIMessageStream: (options) =>
      ai7.readUIMessageStream(options as never) as unknown as AsyncIterable<AiUIMessage>,
  },
];

const convertArrayToReadableStream = ai6Test.convertArrayToReadableStream;

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};
const stop = { unified: "stop" as const, raw: "stop" };
const toolCalls = { unified: "tool-calls" as const, raw: "tool_calls" };

/** Two steps: text, two tool calls (input streamed in pieces), then the answer. */
function scriptedModel(ai: AiLine) {
  return ai.model({
    doStream: [
      {
        stream: convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t1" },
          { type: "text-delta", id: "t1", delta: "Checking " },
          { type: "text-delta", id: "t1", delta: "both." },
          { type: "text-end", id: "t1" },
          { type: "tool-input-start", id: "c1", toolName: "get_weather" },
          { type: "tool-input-delta", id: "c1", delta: '{"city":' },
          { type: "tool-input-delta", id: "c1", delta: '"Oslo"}' },
          { type: "tool-input-end", id: "c1" },
          { type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: '{"city":"Oslo"}' },
          { type: "tool-call", toolCallId: "c2", toolName: "get_weather", input: '{"city":"Rome"}' },
          { type: "finish", finishReason: toolCalls, usage },
        ]),
      },
      {
        stream: convertArrayToReadableStream([
          { type: "text-start", id: "t2" },
          { type: "text-delta", id: "t2", delta: "Oslo 4°C, " },
          { type: "text-delta", id: "t2", delta: "Rome 22°C." },
          { type: "text-end", id: "t2" },
          { type: "finish", finishReason: stop, usage },
        ]),
      },
    ],
  });
}

const weather = async ({ city }: { city: string }) => ({ city, temperature: city === "Oslo" ? "4°C" : "22°C" });

async function fold(
  ai: AiLine,
  chunks: ReadableStream<AiUIMessageChunk>,
): Promise<{ message: AiUIMessage; types: string[]; chunks: AiUIMessageChunk[] }> {
  const seen: AiUIMessageChunk[] = [];
  const types: string[] = [];
  let message: AiUIMessage | undefined;
  const stream = chunks.pipeThrough(
    new TransformStream<AiUIMessageChunk, AiUIMessageChunk>({
      transform(chunk, controller) {
        types.push(chunk.type);
        seen.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  for await (const snapshot of ai.readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  return { message: message!, types, chunks: seen };
}

/** Parts without undefined fields, and without a reasoning part's `id` (the stream's block id, not content). */
function comparable(message: AiUIMessage): unknown[] {
  const parts = JSON.parse(JSON.stringify(message.parts)) as Record<string, unknown>[];
  return parts.map(({ id, ...part }) => (part.type === "reasoning" ? part : { id, ...part }));
}

function chunkStream(chunks: AsyncIterable<unknown>): ReadableStream<AiUIMessageChunk> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<AiUIMessageChunk>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value as AiUIMessageChunk);
    },
  });
}

describe.each(aiLines)("the UI message stream side by side with $line's streamText", (ai) => {
  it("gives the same parts for text, streamed tool input and tool results over two steps", async () => {
    const theirs = ai.streamText({
      model: scriptedModel(ai),
      prompt: "Weather in Oslo and Rome?",
      tools: { get_weather: ai.tool({ inputSchema: z.object({ city: z.string() }), execute: weather }) },
      stopWhen: ai.stepLimit(5),
    });
    const ours = streamText({
      model: scriptedModel(ai),
      messages: [{ role: "user", content: "Weather in Oslo and Rome?" }],
      tools: {
        get_weather: tool({ description: "Weather", parameters: z.object({ city: z.string() }), execute: weather }),
      },
    });
    const expected = await fold(ai, theirs);
    const actual = await fold(ai, chunkStream(toUIMessageChunks(ours.fullStream)));

    expect(comparable(actual.message)).toStrictEqual(comparable(expected.message));
    expect(actual.message.parts.map((part) => part.type)).toEqual([
      "step-start",
      "text",
      "tool-get_weather",
      "tool-get_weather",
      "step-start",
      "text",
    ]);
    // Each call's input arrives as input-start, input-deltas (its JSON text, as the model writes
    // it), input-available, as useChat expects.
    const calls = actual.types.flatMap((type, index) => (type === "tool-input-start" ? [index] : []));
    expect(calls).toHaveLength(2);
    const deltaCounts: number[] = [];
    const inputs = calls.map((index) => {
      const end = actual.types.indexOf("tool-input-available", index);
      expect(actual.types.slice(index + 1, end).every((type) => type === "tool-input-delta")).toBe(true);
      deltaCounts.push(end - index - 1);
      return actual.chunks
        .slice(index + 1, end)
        .map((chunk) => (chunk as { inputTextDelta: string }).inputTextDelta)
        .join("");
    });
    expect(inputs).toEqual(['{"city":"Oslo"}', '{"city":"Rome"}']);
    // The model's own deltas, not the whole input at the end.
    expect(Math.max(...deltaCounts)).toBeGreaterThan(1);
  });

  it("gives the same reasoning parts as the AI SDK for a model's reasoning, through the agent loop", async () => {
    const thinkingModel = () =>
      ai.model({
        doStream: {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "reasoning-start", id: "r" },
            { type: "reasoning-delta", id: "r", delta: "17*23 " },
            { type: "reasoning-delta", id: "r", delta: "= 391" },
            { type: "reasoning-end", id: "r" },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "391" },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: stop, usage },
          ]),
        },
      });
    const theirs = ai.streamText({ model: thinkingModel(), prompt: "17 * 23?" });
    const ours = streamText({ model: thinkingModel(), messages: [{ role: "user", content: "17 * 23?" }] });
    const expected = await fold(ai, theirs);
    const actual = await fold(ai, chunkStream(toUIMessageChunks(ours.fullStream)));
    expect(comparable(actual.message)).toStrictEqual(comparable(expected.message));
    expect(comparable(actual.message)).toEqual([
      { type: "step-start" },
      { type: "reasoning", text: "17*23 = 391", state: "done" },
      { type: "text", text: "391", state: "done" },
    ]);
    // The reasoning streams as the model sent it, and its block closes before the text opens.
    expect(actual.types.filter((type) => type.startsWith("reasoning") || type.startsWith("text"))).toEqual([
      "reasoning-start",
      "reasoning-delta",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
    ]);
  });

  it("gives a signed and a redacted thinking block their providerMetadata, as @ai-sdk/anthropic streams them", async () => {
    // @ai-sdk/anthropic's stream: the signature on an empty reasoning-delta after the thinking
    // (signature_delta), redacted thinking's data on its reasoning-start.
    const signed = { anthropic: { signature: "EqQBCkgIARABGAIiQL2Zg+/sig==" } };
    const redacted = { anthropic: { redactedData: "EmwKAhgBEgy3va3pzix/redacted" } };
    const thinkingModel = () =>
      ai.model({
        doStream: {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "reasoning-start", id: "0" },
            { type: "reasoning-delta", id: "0", delta: "17*23 " },
            { type: "reasoning-delta", id: "0", delta: "= 391" },
            { type: "reasoning-delta", id: "0", delta: "", providerMetadata: signed },
            { type: "reasoning-end", id: "0" },
            { type: "reasoning-start", id: "1", providerMetadata: redacted },
            { type: "reasoning-end", id: "1" },
            { type: "text-start", id: "2" },
            { type: "text-delta", id: "2", delta: "391" },
            { type: "text-end", id: "2" },
            { type: "finish", finishReason: stop, usage },
          ]),
        },
      });
    const theirs = ai.streamText({ model: thinkingModel(), prompt: "17 * 23?" });
    const ours = streamText({ model: thinkingModel(), messages: [{ role: "user", content: "17 * 23?" }] });
    const expected = await fold(ai, theirs);
    const actual = await fold(ai, chunkStream(toUIMessageChunks(ours.fullStream)));
    expect(comparable(actual.message)).toStrictEqual(comparable(expected.message));
    expect(comparable(actual.message)).toEqual([
      { type: "step-start" },
      { type: "reasoning", text: "17*23 = 391", state: "done", providerMetadata: signed },
      { type: "reasoning", text: "", state: "done", providerMetadata: redacted },
      { type: "text", text: "391", state: "done" },
    ]);
    // Ours sends it once, on each block's reasoning-end.
    expect(
      actual.chunks.flatMap((chunk) =>
        chunk.type.startsWith("reasoning") ? [[chunk.type, "providerMetadata" in chunk && chunk.providerMetadata]] : [],
      ),
    ).toEqual([
      ["reasoning-start", false],
      ["reasoning-delta", false],
      ["reasoning-delta", false],
      ["reasoning-end", signed],
      ["reasoning-start", false],
      ["reasoning-end", redacted],
    ]);
  });
});
