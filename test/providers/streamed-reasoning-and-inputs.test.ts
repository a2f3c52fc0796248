import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent/agent";
import type { AgentStreamPart } from "../../src/agent/agent-result";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { createOpenAICompatible } from "../../src/models/openai-compatible/create-openai-compatible";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { toUIMessageChunks } from "../../src/streaming/ui-message-stream";
import { tool } from "../../src/tools/tool";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicStream, openaiCompletion, openaiStream } from "../servers/wire-formats";

// Reasoning and tool inputs reach the agent's stream and the UI stream as the model writes them
// (issue 29), from the real wire formats: Anthropic thinking_delta / input_json_delta, an
// OpenAI-compatible server's reasoning_content and tool-call argument deltas.

startFakeLlmServerPerTest();

const tools = {
  get_weather: tool({
    description: "The weather",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}`,
  }),
};
const weatherCall = { id: "call_0", name: "get_weather", arguments: { city: "Paris, France" } };

async function collect(stream: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const parts: AgentStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const kinds = (parts: AgentStreamPart[]) =>
  parts.map((part) => part.type).filter((type, index, all) => type !== all[index - 1]);

describe("Anthropic: thinking and tool input stream as they come", () => {
  it("gives reasoning-delta parts before the text, tool-input-start/delta before the call, and stores the signed block", async () => {
    server.enqueue(
      anthropicStream({
        thinking: [{ thinking: "The user wants the weather in Paris.", signature: "sig-1" }],
        toolCalls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Paris, France" } }],
      }),
      anthropicStream({ text: "It is sunny." }),
    );
    const store = new InMemoryStore();
    const model = createAnthropic({ apiKey: "k", baseURL: server.url })("claude-sonnet-4-5");
    const agent = new Agent({ model, tools, memoryStore: store, sessionId: "s", maxSteps: 2 });
    const parts = await collect(agent.stream({ input: "Weather in Paris?" }).fullStream);
    expect(kinds(parts).slice(0, 7)).toEqual([
      "step-start",
      "reasoning-delta",
      "reasoning-end",
      "tool-input-start",
      "tool-input-delta",
      "tool-call",
      "tool-result",
    ]);
    const reasoning = parts.filter((part) => part.type === "reasoning-delta");
    expect(reasoning.length).toBeGreaterThan(1);
    expect(reasoning.map((part) => part.delta).join("")).toBe("The user wants the weather in Paris.");
    // The block ends with its signature, assembled from the signature_delta events.
    expect(parts.filter((part) => part.type === "reasoning-end")).toEqual([
      { type: "reasoning-end", providerMetadata: { anthropic: { signature: "sig-1" } } },
    ]);
    const inputs = parts.filter((part) => part.type === "tool-input-delta");
    expect(inputs.length).toBeGreaterThan(1);
    expect(JSON.parse(inputs.map((part) => part.delta).join(""))).toEqual({ city: "Paris, France" });
    expect(parts.find((part) => part.type === "tool-input-start")).toEqual({
      type: "tool-input-start",
      toolCallId: "toolu_1",
      toolName: "get_weather",
    });
    const [, assistant] = await store.getMessages("s");
    expect(assistant!.content).toEqual([
      {
        type: "reasoning",
        text: "The user wants the weather in Paris.",
        providerOptions: { anthropic: { signature: "sig-1" } },
      },
    ]);
  });
});

describe("OpenAI-compatible servers: reasoning_content and tool-call deltas", () => {
  const model = () => createOpenAICompatible({ name: "vllm", baseURL: `${server.url}/v1` })("deepseek-r1");

  it("reads reasoning_content into a reasoning part in generate", async () => {
    server.enqueue(openaiCompletion({ reasoningContent: "2 and 2 make 4.", text: "4" }));
    const store = new InMemoryStore();
    const result = await new Agent({ model: model(), memoryStore: store, sessionId: "s" }).run("2+2?");
    expect(result.text).toBe("4");
    expect((await store.getMessages("s"))[1]!.content).toEqual([
      { type: "reasoning", text: "2 and 2 make 4." },
      { type: "text", text: "4" },
    ]);
  });

  it("streams reasoning_content as reasoning-delta, then the text; stores it as one reasoning part", async () => {
    server.enqueue(openaiStream({ reasoningContent: "Two and two make four.", text: "It is 4." }));
    const store = new InMemoryStore();
    const agent = new Agent({ model: model(), memoryStore: store, sessionId: "s" });
    const parts = await collect(agent.stream({ input: "2+2?" }).fullStream);
    expect(kinds(parts)).toEqual([
      "step-start",
      "reasoning-delta",
      "reasoning-end",
      "text-delta",
      "step-finish",
      "finish",
    ]);
    // OpenAI-compatible reasoning has no provider metadata: the block ends without any.
    expect(parts.find((part) => part.type === "reasoning-end")).toEqual({ type: "reasoning-end" });
    expect(
      parts
        .filter((part) => part.type === "reasoning-delta")
        .map((part) => part.delta)
        .join(""),
    ).toBe("Two and two make four.");
    expect((await store.getMessages("s"))[1]!.content).toEqual([
      { type: "reasoning", text: "Two and two make four." },
      { type: "text", text: "It is 4." },
    ]);
  });

  it("gives the UI stream reasoning blocks and the tool input in several deltas, under the id the run records", async () => {
    // The server answers call_0 every step: the second call is recorded as call_0_2, and its
    // streamed input carries that id from its start.
    server.enqueue(
      openaiStream({ reasoningContent: "Look it up.", toolCalls: [weatherCall] }),
      openaiStream({ toolCalls: [weatherCall] }),
      openaiStream({ text: "Sunny." }),
    );
    const store = new InMemoryStore();
    const agent = new Agent({ model: model(), tools, memoryStore: store, sessionId: "s", maxSteps: 3 });
    const chunks: { type: string; toolCallId?: string; inputTextDelta?: string; delta?: string }[] = [];
    for await (const chunk of toUIMessageChunks(agent.stream({ input: "Weather?" }).fullStream)) chunks.push(chunk);
    const types = chunks.map((chunk) => chunk.type).filter((type, index, all) => type !== all[index - 1]);
    expect(types.slice(0, 9)).toEqual([
      "start",
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-available",
      "tool-output-available",
    ]);
    for (const id of ["call_0", "call_0_2"]) {
      const of = chunks.filter((chunk) => chunk.toolCallId === id);
      expect(of.map((chunk) => chunk.type).filter((type, index, all) => type !== all[index - 1])).toEqual([
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-output-available",
      ]);
      const deltas = of.filter((chunk) => chunk.type === "tool-input-delta");
      expect(deltas.length).toBeGreaterThan(1);
      expect(JSON.parse(deltas.map((chunk) => chunk.inputTextDelta).join(""))).toEqual({ city: "Paris, France" });
    }
    const stored = await store.getMessages("s");
    expect(stored.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : []))).toEqual([
      "call_0",
      "call_0_2",
    ]);
  });
});
