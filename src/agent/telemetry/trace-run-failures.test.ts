// OpenTelemetry traces of agent runs that fail: a failure's type without its text, aborts, a failing
// provider, tool call or recall; and no span at all when telemetry is off.
import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError } from "../../errors/abort-error";
import { APICallError } from "../../errors/api-call-error";
import type { RecallMemoryProvider } from "../../providers/memory-provider";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { tool } from "../../tools/tool";
import { Agent } from "../agent";
import { exceptions, idOf, parentOf, recallProvider, recorder, weather } from "./__fixtures__/span-recorder";

describe("a traced run", () => {
  it("records a failure's type, not its text, when inputs and outputs are not recorded", async () => {
    class QuotaError extends Error {}
    const secret = "4111-1111-1111-1111";
    const charge = tool({
      description: "Charges a card",
      parameters: z.object({ card: z.string() }),
      execute: async ({ card }) => Promise.reject(new QuotaError(`card ${card} is over its limit`)),
    });
    const failingRecall: RecallMemoryProvider = {
      type: "flaky",
      read: async () => Promise.reject(new TypeError(`no index for "${secret}"`)),
      write: async () => {},
    };
    const providerError = new APICallError({
      message: `The prompt "Charge ${secret}" was refused.`,
      statusCode: 400,
      provider: "mock",
      modelId: "mock-model",
      isRetryable: false,
    });
    const model = () =>
      new MockLanguageModel({
        responses: [
          { toolCalls: [{ name: "charge", arguments: { card: secret } }] },
          { toolCalls: [{ name: "charge", arguments: { card: 42 } }] },
          { error: providerError },
        ],
      });
    for (const options of [
      { recordInputs: false, recordOutputs: false },
      { recordInputs: false },
      { recordOutputs: false },
    ]) {
      const { tracer, spans, named, one } = recorder();
      const agent = new Agent({
        model: model(),
        tools: { charge },
        memoryProvider: failingRecall,
        telemetry: { tracer, ...options },
      });
      await expect(agent.run(`Charge ${secret}`)).rejects.toBe(providerError);
      // What the failures recorded: no message, no stack, with either option off.
      // (Events without their times, and the secret matched whole: a timestamp or a random id may hold "4111".)
      const failures = JSON.stringify(
        spans().map((span) => ({
          status: span.status,
          events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        })),
      );
      expect(failures).not.toMatch(/4111-1111|over its limit|refused|no index|\.ts:/);
      if (options.recordInputs === false && options.recordOutputs === false) {
        expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain("4111-1111");
      }
      const [thrown, invalid] = named("execute_tool charge");
      expect(thrown!.status).toEqual({ code: 2, message: "QuotaError" });
      expect(thrown!.attributes["error.type"]).toBe("QuotaError");
      expect(exceptions(thrown!)[0]!.attributes).toEqual({ "exception.type": "QuotaError" });
      expect(invalid!.attributes["error.type"]).toBe("InvalidToolInputError");
      expect(one("agentcore.recall").attributes["error.type"]).toBe("TypeError");
      const chat = named("chat mock-model").at(-1)!;
      expect(chat.status).toEqual({ code: 2, message: "APICallError" });
      expect(exceptions(chat)[0]!.attributes).toEqual({ "exception.type": "APICallError" });
      expect(one("invoke_agent").attributes["error.type"]).toBe("APICallError");
    }
    // With both on (the default) the text is recorded, as before.
    const { tracer, one, named } = recorder();
    const agent = new Agent({ model: model(), tools: { charge }, telemetry: { tracer } });
    await expect(agent.run(`Charge ${secret}`)).rejects.toBe(providerError);
    expect(one("execute_tool charge").status.message).toContain(`card ${secret} is over its limit`);
    expect(one("execute_tool charge").attributes["error.type"]).toBe("QuotaError");
    expect(named("chat mock-model").at(-1)!.status.message).toBe(providerError.message);
  });

  it("ends an aborted run's spans with status ERROR, marked aborted, and records the write of what completed", async () => {
    const { tracer, spans, one, started } = recorder();
    const model = new MockLanguageModel({
      chunkSize: 2,
      chunkDelayMs: 5,
      responses: [
        { toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] },
        { text: "This answer is long and will be cut off by the abort." },
      ],
    });
    const agent = new Agent({ name: "bot", model, tools: { get_weather: weather }, telemetry: { tracer } });
    const controller = new AbortController();
    const stream = agent.stream({ input: "Weather in Rome?", signal: controller.signal });
    let deltas = 0;
    for await (const part of stream.fullStream) if (part.type === "text-delta" && ++deltas === 3) controller.abort();
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);

    expect(started.every((span) => span.ended)).toBe(true);
    const root = one("invoke_agent bot");
    expect(root.status).toEqual({ code: 2, message: "The run was aborted." });
    expect(root.attributes).toMatchObject({
      "agentcore.aborted": true,
      "error.type": "AbortError",
      "agentcore.finish_reason": "aborted",
    });
    expect(exceptions(root)).toHaveLength(1);
    const chats = spans().filter((span) => span.name === "chat mock-model");
    expect(chats).toHaveLength(2);
    expect(chats[0]!.status.code).toBe(0);
    expect(chats[1]!.status.code).toBe(2);
    expect(chats[1]!.attributes).toMatchObject({ "agentcore.aborted": true });
    // The user message and the completed first step were stored on the way out.
    const writes = spans().filter((span) => span.name === "agentcore.memory.write");
    expect(writes).toHaveLength(1);
    expect(writes[0]!.attributes["agentcore.messages.written"]).toBe(3);
    expect(spans().every((span) => span.spanContext().traceId === root.spanContext().traceId)).toBe(true);
  });

  it("gives a failing provider's call and the run status ERROR with the exception", async () => {
    const { tracer, spans, one, started } = recorder();
    const failure = new APICallError({
      message: "The server had an error.",
      statusCode: 500,
      provider: "mock",
      modelId: "mock-model",
      isRetryable: true,
    });
    const model = new MockLanguageModel({ responses: [{ error: failure }] });
    const agent = new Agent({ model, telemetry: { tracer } });
    await expect(agent.run("Hi")).rejects.toBe(failure);

    expect(started.every((span) => span.ended)).toBe(true);
    const chat = one("chat mock-model");
    expect(chat.status).toEqual({ code: 2, message: "The server had an error." });
    expect(chat.attributes["error.type"]).toBe("APICallError");
    expect(exceptions(chat)[0]!.attributes).toMatchObject({
      "exception.type": "APICallError",
      "exception.message": "The server had an error.",
    });
    expect(chat.attributes).not.toHaveProperty("agentcore.aborted");
    const root = one("invoke_agent");
    expect(root.status.code).toBe(2);
    expect(root.attributes).toMatchObject({ "error.type": "APICallError", "agentcore.finish_reason": "error" });
    expect(parentOf(chat)).toBe(idOf(root));
    expect(spans().map((span) => span.name)).toEqual([
      "agentcore.memory.read",
      "agentcore.memory.fit",
      "chat mock-model",
      "agentcore.memory.write",
      "invoke_agent",
    ]);
  });

  it("marks a tool call that failed (its error went back to the model) and a recall that failed, while the run succeeds", async () => {
    const { tracer, one } = recorder();
    const broken = tool({
      description: "Always fails",
      parameters: z.object({}),
      execute: async () => Promise.reject(new Error("disk full")),
    });
    const failingRecall: RecallMemoryProvider = {
      type: "flaky",
      read: async () => Promise.reject(new Error("index offline")),
      write: async () => {},
    };
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ name: "broken", arguments: {} }] }, { text: "Sorry." }],
    });
    const agent = new Agent({ model, tools: { broken }, memoryProvider: failingRecall, telemetry: { tracer } });
    await agent.run("Try it");
    expect(one("execute_tool broken").status).toEqual({ code: 2, message: 'Error: Tool "broken" failed: disk full' });
    expect(one("agentcore.recall").status).toEqual({ code: 2, message: "index offline" });
    expect(one("invoke_agent").status.code).toBe(0);
  });

  it("makes no span when telemetry is off, even with a global tracer provider registered", async () => {
    const { provider, spans } = recorder();
    trace.setGlobalTracerProvider(provider);
    try {
      const model = new MockLanguageModel({
        responses: [
          { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] },
          { text: "Cold." },
          { text: "Again." },
        ],
      });
      await new Agent({ model, tools: { get_weather: weather }, memoryProvider: recallProvider }).run("Weather?");
      await new Agent({ model, telemetry: { isEnabled: false } }).run("Again?");
      expect(spans()).toEqual([]);
    } finally {
      trace.disable();
    }
  });
});
