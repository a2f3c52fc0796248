import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { NoObjectGeneratedError } from "../errors/no-object-generated-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel, type MockResponse } from "../testing/mock-language-model";
import { streamText } from "../streaming/stream-text";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import type { AgentStreamPart } from "./agent-result";
import { MAX_OUTPUT_DEPTH } from "./output-spec";
import { PartialJsonParser } from "./partial-json-parser";

const weather = z.object({
  city: z.string(),
  temperatureC: z.number(),
  conditions: z.array(z.string()),
  note: z.string().optional(),
});
const answer = { city: "Paris", temperatureC: 18, conditions: ["cloudy", "dry"] };

function setup(responses: MockResponse[], options: { maxSteps?: number } = {}) {
  const model = new MockLanguageModel({ responses, chunkSize: 3 });
  const memoryStore = new InMemoryStore();
  const calls: string[] = [];
  const agent = new Agent({
    model,
    memoryStore,
    sessionId: "s1",
    maxSteps: options.maxSteps ?? 4,
    tools: {
      get_weather: tool({
        description: "Weather of a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          calls.push(city);
          return { city, temperatureC: 18 };
        },
      }),
    },
  });
  return { model, memoryStore, agent, calls };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<{ values: T[]; error?: unknown }> {
  const values: T[] = [];
  try {
    for await (const value of iterable) values.push(value);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

describe("structured output (MockLanguageModel)", () => {
  it("returns the validated, typed object, asks the model for its JSON schema and stores the object's JSON as the answer", async () => {
    const { model, memoryStore, agent } = setup([{ object: answer, usage: { inputTokens: 7, outputTokens: 3 } }]);
    const result = await agent.run({ input: "Weather in Paris?", output: weather });
    expectTypeOf(result.object).toEqualTypeOf<z.output<typeof weather>>();
    expect(result.object).toEqual(answer);
    expect(result.text).toBe(JSON.stringify(answer));
    expect(model.calls[0]!.responseFormat).toEqual({
      type: "json",
      name: "response",
      schema: {
        type: "object",
        properties: {
          city: { type: "string" },
          temperatureC: { type: "number" },
          conditions: { type: "array", items: { type: "string" } },
          note: { type: "string" },
        },
        required: ["city", "temperatureC", "conditions"],
        additionalProperties: false,
      },
    });
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", JSON.stringify(answer)],
    ]);
  });

  it("keeps memory across turns: the next run's model sees the stored object as the assistant's answer", async () => {
    const { model, agent } = setup([{ object: answer }, { text: "It was Paris." }]);
    await agent.run({ input: "Weather in Paris?", output: weather });
    const second = await agent.run("Which city was it?");
    expect(second.text).toBe("It was Paris.");
    expect(second.object).toBeUndefined();
    expect(model.calls[1]!.responseFormat).toBeUndefined();
    expect(model.calls[1]!.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", JSON.stringify(answer)],
      ["user", "Which city was it?"],
    ]);
  });

  it("runs tools first and ends with the object, every call asking for it", async () => {
    const { model, memoryStore, agent, calls } = setup([
      { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] },
      { object: answer },
    ]);
    const result = await agent.run({ input: "Weather in Paris?", output: { schema: weather, name: "weather" } });
    expect(calls).toEqual(["Paris"]);
    expect(result.object).toEqual(answer);
    expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"]);
    expect(model.calls.map((call) => call.responseFormat?.name)).toEqual(["weather", "weather"]);
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored.at(-1)!.content).toBe(JSON.stringify(answer));
  });

  it("retries a reply that fails the schema with the issue, and stores none of the failed replies", async () => {
    const { model, memoryStore, agent } = setup([
      { text: "Sure! It is sunny.", usage: { inputTokens: 10, outputTokens: 1 } },
      { object: { city: "Paris", temperatureC: "warm", conditions: [] }, usage: { inputTokens: 20, outputTokens: 2 } },
      { text: `\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\``, usage: { inputTokens: 30, outputTokens: 3 } },
    ]);
    const result = await agent.run({ input: "Weather in Paris?", output: weather });
    expect(result.object).toEqual(answer);
    expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 6, totalTokens: 66 });
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]!.usage).toEqual({ inputTokens: 60, outputTokens: 6, totalTokens: 66 });
    // The retry call: the window, then the failed reply and what was wrong with it.
    const retry = model.calls[1]!.messages;
    expect(retry.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(retry[1]!.content).toBe("Sure! It is sunny.");
    expect(retry[2]!.content).toMatch(/not JSON/);
    expect(model.calls[2]!.messages.at(-1)!.content).toMatch(/temperatureC/);
    expect(model.calls[2]!.messages).toHaveLength(3);
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", JSON.stringify(answer)],
    ]);
  });

  it("throws NoObjectGeneratedError with the text, the cause and the usage once the retries are spent; only the user message is stored", async () => {
    const { model, memoryStore, agent } = setup([
      { text: "no", usage: { inputTokens: 5, outputTokens: 1 } },
      { object: { city: 3 }, usage: { inputTokens: 6, outputTokens: 1 } },
    ]);
    const error = await agent.run({ input: "Weather?", output: { schema: weather, retries: 1 } }).then(
      () => undefined,
      (thrown) => thrown,
    );
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    const failure = error as NoObjectGeneratedError;
    expect(failure.reason).toBe("invalid");
    expect(failure.text).toBe('{"city":3}');
    expect(failure.attempts).toBe(2);
    expect(failure.usage).toEqual({ inputTokens: 11, outputTokens: 2, totalTokens: 13 });
    expect(failure.sessionId).toBe("s1");
    expect((failure.cause as z.ZodError).issues.map((issue) => issue.path.join("."))).toContain("temperatureC");
    expect(model.calls).toHaveLength(2);
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => message.role)).toEqual(["user"]);
  });

  it("gives up at once with retries: 0", async () => {
    const { model, agent } = setup([{ text: "{" }]);
    const error = await agent.run({ input: "Weather?", output: { schema: weather, retries: 0 } }).then(
      () => undefined,
      (thrown) => thrown,
    );
    expect((error as NoObjectGeneratedError).attempts).toBe(1);
    expect(model.calls).toHaveLength(1);
  });

  it("throws NoObjectGeneratedError (max-steps) when the model still calls tools at maxSteps, the tool steps stored whole", async () => {
    const { memoryStore, agent } = setup(
      [{ toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] }],
      { maxSteps: 1 },
    );
    const error = await agent.run({ input: "Weather?", output: weather }).then(
      () => undefined,
      (thrown) => thrown,
    );
    expect((error as NoObjectGeneratedError).reason).toBe("max-steps");
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("refuses an output that is not an object schema, naming the option", async () => {
    const { agent } = setup([]);
    for (const output of [
      z.string(),
      z.array(z.string()),
      { schema: "nope" },
      { schema: weather, retries: -1 },
      { schema: weather, name: "a b" },
    ]) {
      const error = await agent.run({ input: "x", output: output as never }).then(
        () => undefined,
        (thrown) => thrown,
      );
      expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toMatch(/^output/);
    }
  });

  it("streams partial objects, then resolves the object; a retry starts the partials over", async () => {
    const { agent, memoryStore } = setup([{ text: '{"city": "Par' }, { object: answer }]);
    const stream = agent.stream({ input: "Weather?", output: weather });
    expectTypeOf(stream.object).toEqualTypeOf<Promise<z.output<typeof weather>>>();
    const [partials, full] = await Promise.all([collect(stream.partialObjectStream), collect(stream.fullStream)]);
    expect(await stream.object).toEqual(answer);
    const values = partials.values as Record<string, unknown>[];
    // The failed reply's partials, then the retry's from the start.
    const retryAt = values.findIndex(
      (value, index) => index > 0 && Object.keys(value).length < Object.keys(values[index - 1]!).length,
    );
    expect(values.slice(0, retryAt).at(-1)).toEqual({ city: "Par" });
    expect(values.at(-1)).toEqual(answer);
    for (let index = retryAt + 1; index < values.length; index++)
      expect(JSON.stringify(values[index])).not.toBe(JSON.stringify(values[index - 1]));
    expect(values.some((value) => Array.isArray(value.conditions) && value.conditions.length === 1)).toBe(true);
    const retry = full.values.find(
      (part): part is Extract<AgentStreamPart, { type: "object-retry" }> => part.type === "object-retry",
    );
    expect(retry).toMatchObject({ attempt: 1 });
    expect(retry!.issue).toMatch(/not JSON/);
    expect((await memoryStore.getMessages("s1")).map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("rejects the stream's object and ends partialObjectStream with NoObjectGeneratedError when no object came", async () => {
    const { agent } = setup([{ text: "x" }]);
    const stream = agent.stream({ input: "Weather?", output: { schema: weather, retries: 0 } });
    const partials = await collect(stream.partialObjectStream);
    expect(NoObjectGeneratedError.isInstance(partials.error)).toBe(true);
    await expect(stream.object).rejects.toSatisfy(NoObjectGeneratedError.isInstance);
  });

  it("a stream without output has no object", async () => {
    const { agent } = setup([{ text: "hello" }]);
    const stream = agent.stream("hi");
    await expect(stream.object).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect((await collect(stream.partialObjectStream)).values).toEqual([]);
  });

  it("marks each chat span of a run with output as gen_ai.output.type json, and the retry as a chat of its own", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const model = new MockLanguageModel({ responses: [{ text: "x" }, { object: answer }, { text: "plain" }] });
    const agent = new Agent({ model, telemetry: { tracer: provider.getTracer("test") } });
    await agent.run({ input: "Weather?", output: weather });
    await agent.run("And now in words?");
    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith("chat "));
    expect(chats.map((span) => span.attributes["gen_ai.output.type"])).toEqual(["json", "json", undefined]);
  });

  it("streamText: partial objects and the object; in the UI message stream a retried reply is a text part of its own", async () => {
    const model = new MockLanguageModel({ responses: [{ text: '{"city": 1' }, { object: answer }] });
    const result = streamText({ model, messages: [{ role: "user", content: "Weather?" }], output: weather });
    const [chunks, partials] = await Promise.all([
      collect(result.toUIMessageStream()),
      collect(result.partialObjectStream),
    ]);
    expect(await result.object).toEqual(answer);
    expect(partials.values.at(-1)).toEqual(answer);
    const kinds = chunks.values
      .map((chunk) => chunk.type)
      .filter((type) => type === "text-start" || type === "text-end");
    expect(kinds).toEqual(["text-start", "text-end", "text-start", "text-end"]);
  });

  it("partials keep a streamed __proto__ key as an own property, never as their prototype; constructor and prototype keys are plain properties", async () => {
    const json = `{"__proto__": {"city": "Evil", "polluted": true}, "city": "Paris", "temperatureC": 18, "conditions": [{"constructor": "c", "prototype": "p"}]}`;
    const { agent } = setup([{ text: json }]);
    const loose = z.object({ city: z.string() }).loose();
    const stream = agent.stream({ input: "Weather?", output: loose });
    const partials = (await collect(stream.partialObjectStream)).values as Record<string, unknown>[];
    expect(partials.length).toBeGreaterThan(3);
    for (const partial of partials) {
      expect(Object.getPrototypeOf(partial)).toBe(Object.prototype);
      expect(String(partial)).toBe("[object Object]");
      expect(partial.polluted).toBeUndefined();
    }
    const last = partials.at(-1)!;
    expect(Object.keys(last)).toEqual(Object.keys(JSON.parse(json)));
    expect(Object.getOwnPropertyDescriptor(last, "__proto__")?.value).toEqual({ city: "Evil", polluted: true });
    expect(last.city).toBe("Paris");
    const item = (last.conditions as Record<string, unknown>[])[0]!;
    expect(Object.getOwnPropertyNames(item)).toEqual(["constructor", "prototype"]);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect((await stream.object).city).toBe("Paris");
  });

  const nested = (depth: number) => `{"city": "Paris", "extra": ${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
  const withExtra = z.object({ city: z.string(), extra: z.unknown().optional() });

  it("a reply nested deeper than MAX_OUTPUT_DEPTH is invalid: asked for again with the issue, never stored", async () => {
    const { model, agent, memoryStore } = setup([{ text: nested(5_000) }, { text: nested(MAX_OUTPUT_DEPTH) }]);
    const result = await agent.run({ input: "Weather?", output: withExtra });
    expect(result.object.city).toBe("Paris");
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]!.messages.at(-1)!.content).toMatch(
      new RegExp(`nested deeper than ${MAX_OUTPUT_DEPTH} levels of objects and arrays`),
    );
    const stored = await memoryStore.getMessages("s1");
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ["user", "Weather?"],
      ["assistant", nested(MAX_OUTPUT_DEPTH).replace(/\s/g, "")],
    ]);
  });

  it("an over-deep reply ends in NoObjectGeneratedError, and partialObjectStream stops its partials at the bound without throwing anything else", async () => {
    const { agent } = setup([{ text: nested(5_000) }, { text: nested(5_000) }]);
    const stream = agent.stream({ input: "Weather?", output: { schema: withExtra, retries: 1 } });
    const [partials, full] = await Promise.all([collect(stream.partialObjectStream), collect(stream.fullStream)]);
    expect(NoObjectGeneratedError.isInstance(partials.error), String(partials.error)).toBe(true);
    expect((partials.error as NoObjectGeneratedError).reason).toBe("invalid");
    expect((partials.error as NoObjectGeneratedError).attempts).toBe(2);
    expect(partials.values.length).toBeGreaterThan(0);
    const depthOf = (value: unknown): number =>
      Array.isArray(value)
        ? 1 + Math.max(0, ...value.map(depthOf))
        : value && typeof value === "object"
          ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
          : 0;
    for (const partial of partials.values) expect(depthOf(partial)).toBeLessThanOrEqual(MAX_OUTPUT_DEPTH);
    expect(full.values.filter((part) => part.type === "object-retry")).toHaveLength(1);
    await expect(stream.object).rejects.toSatisfy(NoObjectGeneratedError.isInstance);
  });

  it("reads partialObjectStream in work linear in the reply: each character once, a bounded copy per character, the last partial whole", async () => {
    const work: number[] = [];
    for (const items of [500, 2_000]) {
      const object = {
        city: "Paris",
        temperatureC: 18,
        conditions: Array.from({ length: items }, (_, index) => `c${index}`),
      };
      const json = JSON.stringify(object);
      const { agent } = setup([{ object }]);
      const before = { ...PartialJsonParser.work };
      const stream = agent.stream({ input: "Weather?", output: weather });
      const partials = (await collect(stream.partialObjectStream)).values;
      const characters = PartialJsonParser.work.characters - before.characters;
      const copied = PartialJsonParser.work.copied - before.copied;
      expect(characters).toBe(json.length);
      expect(copied).toBeLessThanOrEqual(17 * json.length);
      expect(partials.at(-1)).toEqual(object);
      expect(await stream.object).toEqual(object);
      work.push(characters + copied);
    }
    // Four times the reply, about four times the work (re-reading the text at each delta is sixteen).
    expect(work[1]! / work[0]!).toBeLessThan(5);
  });
});
