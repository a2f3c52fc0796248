// streamText with the telemetry option: the same span tree as an agent run, the model called by
// doStream, and every span ended when the client goes away mid-answer.
import { describe, expect, it } from "vitest";
import { recorder } from "../agent/telemetry/__fixtures__/span-recorder";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { streamText } from "./stream-text";

const user = (content: string) => [{ role: "user" as const, content }];

describe("streamText with telemetry", () => {
  it("traces the streamed run: invoke_agent with memory read, fit, chat (doStream) and write under it", async () => {
    const { tracer, spans, started } = recorder();
    const model = new MockLanguageModel({
      modelId: "gpt-stream",
      responses: [{ text: "Streaming works fine.", usage: { inputTokens: 12, outputTokens: 4 } }],
    });
    const result = streamText({
      model,
      messages: user("Say something"),
      memoryStore: new InMemoryStore(),
      sessionId: "chat-1",
      telemetry: { tracer, functionId: "chat-route" },
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe("Streaming works fine.");
    await result.response;

    expect(model.calls[0]!.stream).toBe(true);
    expect(started.every((span) => span.ended)).toBe(true);
    const root = spans().find((span) => span.name === "invoke_agent")!;
    expect(root.attributes).toMatchObject({
      "agentcore.session.id": "chat-1",
      "agentcore.function_id": "chat-route",
      "gen_ai.usage.output_tokens": 4,
    });
    const children = spans().filter((span) => span.parentSpanContext?.spanId === root.spanContext().spanId);
    expect(children.map((span) => span.name)).toEqual([
      "agentcore.memory.read",
      "agentcore.memory.fit",
      "chat gpt-stream",
      "agentcore.memory.write",
    ]);
    expect(children[2]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.output.messages": JSON.stringify([
        { role: "assistant", parts: [{ type: "text", content: "Streaming works fine." }], finish_reason: "stop" },
      ]),
      "agentcore.function_id": "chat-route",
    });
  });

  it("ends every span, marked aborted, when the client disconnects and the run is aborted", async () => {
    const { tracer, spans, started } = recorder();
    const model = new MockLanguageModel({
      chunkSize: 3,
      chunkDelayMs: 5,
      responses: [{ text: "A long answer that the client will not wait for, streamed in small pieces." }],
    });
    const result = streamText({
      model,
      messages: user("Tell me a story"),
      memoryStore: new InMemoryStore(),
      sessionId: "chat-2",
      telemetry: { tracer },
    });
    const reader = result.toUIMessageStreamResponse({ onClientDisconnect: "abort" }).body!.getReader();
    for (let read = 0; read < 4; read++) await reader.read();
    await reader.cancel();
    await expect(result.response).rejects.toThrow();

    expect(started.length).toBeGreaterThan(0);
    expect(started.every((span) => span.ended)).toBe(true);
    const root = spans().find((span) => span.name === "invoke_agent")!;
    expect(root.status).toEqual({ code: 2, message: "The run was aborted." });
    expect(root.attributes).toMatchObject({ "agentcore.aborted": true, "agentcore.finish_reason": "aborted" });
    const chat = spans().find((span) => span.name === "chat mock-model")!;
    expect(chat.status.code).toBe(2);
    expect(chat.attributes["agentcore.aborted"]).toBe(true);
  });

  it("lets the run finish and end its spans normally when the client goes away with the default policy", async () => {
    const { tracer, spans, started } = recorder();
    const model = new MockLanguageModel({
      chunkSize: 3,
      chunkDelayMs: 2,
      responses: [{ text: "Finished even though nobody read it." }],
    });
    const result = streamText({
      model,
      messages: user("Hi"),
      memoryStore: new InMemoryStore(),
      sessionId: "chat-3",
      telemetry: { tracer },
    });
    const reader = result.toTextStreamResponse().body!.getReader();
    await reader.read();
    await reader.cancel();
    await result.response;
    expect(started.every((span) => span.ended)).toBe(true);
    expect(spans().find((span) => span.name === "invoke_agent")!.status.code).toBe(0);
  });
});
