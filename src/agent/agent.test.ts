import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "./agent";
import type { AgentOptions } from "./agent-options";
import { tool } from "../tools/tool";
import { InMemoryStore } from "../stores/in-memory-store";
import type { AgentMessage } from "../messages/agent-message";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { AbortError } from "../errors/abort-error";
import { NoSuchProviderError } from "../errors/no-such-provider-error";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { SessionBusyError } from "../errors/session-busy-error";
import type { AgentEventMap, AgentEventName } from "./agent-events";

const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: "22°C" }),
});

function withoutMeta(messages: AgentMessage[]) {
  return messages.map(({ id: _id, timestamp: _timestamp, ...rest }) => rest);
}

describe("Agent run loop", () => {
  it("answers with text and records the exact request", async () => {
    const model = new MockLanguageModel({
      responses: [{ text: "Hello!", usage: { inputTokens: 10, outputTokens: 2 } }],
    });
    const agent = new Agent({ model, systemPrompt: "You are helpful." });
    const result = await agent.run("Hi");
    expect(result.text).toBe("Hello!");
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 2, totalTokens: 12 });
    expect(result.steps).toHaveLength(1);
    expect(result.finishReason).toBe("stop");
    expect(withoutMeta(result.messages)).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello!" },
    ]);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.system).toBe("You are helpful.");
    expect(withoutMeta(model.calls[0]!.messages)).toEqual([{ role: "user", content: "Hi" }]);
    expect(model.calls[0]!.tools).toEqual([]);
    for (const message of result.messages) {
      expect(typeof message.id).toBe("string");
      expect(typeof message.timestamp).toBe("number");
    }
  });

  it("runs a tool call, sends the result back, then answers", async () => {
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } }] },
        { text: "It is 22°C in Tokyo." },
      ],
    });
    const agent = new Agent({ model, tools: { get_weather: weather } });
    const result = await agent.run("Weather in Tokyo?");
    expect(result.text).toBe("It is 22°C in Tokyo.");
    expect(result.toolCalls).toEqual([{ id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } }]);
    expect(result.toolResults).toEqual([
      { toolCallId: "call_1", toolName: "get_weather", result: { city: "Tokyo", temperature: "22°C" }, isError: false },
    ]);
    expect(model.calls[0]!.tools).toEqual([
      {
        name: "get_weather",
        description: "Current weather in a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
    expect(withoutMeta(model.calls[1]!.messages)).toEqual([
      { role: "user", content: "Weather in Tokyo?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } }],
      },
      { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"city":"Tokyo","temperature":"22°C"}' },
    ]);
    expect(withoutMeta(result.messages)).toEqual([
      ...withoutMeta(model.calls[1]!.messages),
      { role: "assistant", content: "It is 22°C in Tokyo." },
    ]);
  });

  it("runs several tools of one step and keeps their results in call order", async () => {
    const order: string[] = [];
    const slow = tool({
      parameters: z.object({ ms: z.number() }),
      execute: async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`slow:${ms}`);
        return `slept ${ms}`;
      },
    });
    const model = new MockLanguageModel({
      responses: [
        {
          toolCalls: [
            { id: "a", name: "slow", arguments: { ms: 30 } },
            { id: "b", name: "get_weather", arguments: { city: "Oslo" } },
            { id: "c", name: "slow", arguments: { ms: 1 } },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = new Agent({ model, tools: { slow, get_weather: weather } });
    const result = await agent.run("go");
    expect(order).toEqual(["slow:1", "slow:30"]); // ran concurrently
    const second = model.calls[1]!.messages;
    expect(second.slice(2).map((message) => (message.role === "tool" ? message.toolCallId : message.role))).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(isToolPairingValid(second)).toBe(true);
    expect(result.steps[0]!.toolResults.map((toolResult) => toolResult.toolCallId)).toEqual(["a", "b", "c"]);
  });

  it("stops after maxSteps with a history that still pairs every call", async () => {
    const model = new MockLanguageModel({
      responses: () => ({ toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] }),
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      tools: { get_weather: weather },
      maxSteps: 3,
      memoryStore: store,
      sessionId: "s",
    });
    const result = await agent.run("loop forever");
    expect(model.calls).toHaveLength(3);
    expect(result.steps).toHaveLength(3);
    expect(result.finishReason).toBe("tool-calls");
    const stored = await store.getMessages("s");
    expect(stored).toHaveLength(1 + 3 * 2);
    expect(isToolPairingValid(stored)).toBe(true);
  });

  it("sends invalid tool arguments back to the model as a tool result", async () => {
    const execute = vi.fn(async () => "never");
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "bad", name: "get_weather", arguments: { town: 5 } }] }, { text: "sorry" }],
    });
    const agent = new Agent({
      model,
      tools: { get_weather: tool({ parameters: z.object({ city: z.string() }), execute }) },
    });
    const result = await agent.run("weather");
    expect(execute).not.toHaveBeenCalled();
    const toolMessage = model.calls[1]!.messages.at(-1)!;
    expect(toolMessage.role).toBe("tool");
    expect(toolMessage.content).toMatch(/^Error: Invalid arguments for tool "get_weather": city: /);
    expect(result.toolResults[0]!.isError).toBe(true);
  });

  it("sends a throwing execute and an unknown tool back to the model", async () => {
    const model = new MockLanguageModel({
      responses: [
        {
          toolCalls: [
            { id: "t1", name: "explode", arguments: {} },
            { id: "t2", name: "no_such_tool", arguments: {} },
          ],
        },
        { text: "recovered" },
      ],
    });
    const explode = tool({
      parameters: z.object({}),
      execute: () => {
        throw new Error("database offline");
      },
    });
    const agent = new Agent({ model, tools: { explode } });
    const result = await agent.run("try");
    expect(result.text).toBe("recovered");
    const [first, second] = model.calls[1]!.messages.slice(-2);
    expect(first!.content).toBe('Error: Tool "explode" failed: database offline');
    expect(second!.content).toBe('Error: Unknown tool "no_such_tool". Available tools: explode.');
  });

  it("accepts inputSchema as an alias of parameters", async () => {
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "x", name: "echo", arguments: { value: "v" } }] }, { text: "ok" }],
    });
    const echo = tool({ inputSchema: z.object({ value: z.string() }), execute: ({ value }) => value.toUpperCase() });
    const agent = new Agent({ model, tools: { echo } });
    await agent.run("echo");
    expect(model.calls[1]!.messages.at(-1)!.content).toBe("V");
  });
});

describe("Agent sessions", () => {
  it("lets a second run of the same session see the first", async () => {
    const model = new MockLanguageModel({
      responses: [{ text: "Noted: TypeScript." }, { text: "You prefer TypeScript." }],
    });
    const agent = new Agent({ model });
    await agent.run("I prefer TypeScript.");
    await agent.run("What do I prefer?");
    expect(withoutMeta(model.calls[1]!.messages)).toEqual([
      { role: "user", content: "I prefer TypeScript." },
      { role: "assistant", content: "Noted: TypeScript." },
      { role: "user", content: "What do I prefer?" },
    ]);
  });

  it("never lets two sessions, or two agent instances, see each other", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryStore: store });
    await agent.run({ input: "secret of alice", sessionId: "alice" });
    await agent.run({ input: "hello from bob", sessionId: "bob" });
    expect(model.calls[1]!.messages.map((message) => message.content)).toEqual(["hello from bob"]);

    const first = new Agent({ model, memoryStore: store });
    const second = new Agent({ model, memoryStore: store });
    expect(first.sessionId).not.toBe(second.sessionId);
    await first.run("first instance");
    await second.run("second instance");
    expect(model.calls.at(-1)!.messages.map((message) => message.content)).toEqual(["second instance"]);
  });

  it("uses the agent's sessionId option by default and validates ids", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryStore: store, sessionId: "user-42" });
    await agent.run("hi");
    expect(await store.getMessages("user-42")).toHaveLength(2);
    await expect(agent.run({ input: "x", sessionId: "bad\nid" })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(agent.run({ input: "x", sessionId: "a".repeat(300) })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
    await expect(agent.run("   ")).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });

  it("works with a custom store that has only the six methods", async () => {
    const store = sixMethodStore();
    const data = store.sessions;
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "w", name: "get_weather", arguments: { city: "Lima" } }] },
        { text: "warm" },
        { text: "again" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, tools: { get_weather: weather }, sessionId: "custom" });
    await agent.run("weather in Lima");
    await agent.run("and again?");
    expect(data.get("custom")).toHaveLength(6);
    expect(model.calls[2]!.messages).toHaveLength(5);
  });

  it("queues a second run on a busy session, or rejects it when asked to", async () => {
    let open!: () => void;
    const gate = { promise: new Promise<void>((resolve) => (open = resolve)), resolve: () => open() };
    const model = new MockLanguageModel({
      responses: async (_call, index) => {
        if (index === 0) await gate.promise;
        return { text: `answer ${index}` };
      },
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "busy" });
    const first = agent.run("first");
    const second = agent.run("second");
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.resolve();
    await Promise.all([first, second]);
    expect((await store.getMessages("busy")).map((message) => message.content)).toEqual([
      "first",
      "answer 0",
      "second",
      "answer 1",
    ]);

    const rejecting = new Agent({
      model: new MockLanguageModel({
        responses: async () => new Promise((resolve) => setTimeout(() => resolve({ text: "slow" }), 30)),
      }),
      concurrency: "reject",
      sessionId: "busy",
    });
    const running = rejecting.run("one");
    await expect(rejecting.run("two")).rejects.toSatisfy(SessionBusyError.isInstance);
    await running;
  });
});

describe("Agent events", () => {
  it("emits every event with its payload, in order", async () => {
    const model = new MockLanguageModel({
      responses: [
        {
          toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
          usage: { inputTokens: 5, outputTokens: 1 },
        },
        { text: "Sunny." },
      ],
    });
    const agent = new Agent({ name: "assistant", model, tools: { get_weather: weather }, sessionId: "events" });
    const seen: { name: AgentEventName; event: AgentEventMap[AgentEventName] }[] = [];
    const names: AgentEventName[] = [
      "run:start",
      "run:end",
      "step:start",
      "step:end",
      "tool:call",
      "tool:result",
      "memory:read",
      "memory:write",
      "memory:error",
      "context:trimmed",
    ];
    for (const name of names) agent.on(name, (event) => seen.push({ name, event }));
    await agent.run({ input: "Weather in Paris?", userId: "u1" });
    expect(seen.map((entry) => entry.name)).toEqual([
      "run:start",
      "memory:read",
      "memory:write",
      "step:start",
      "tool:call",
      "tool:result",
      "step:end",
      "step:start",
      "step:end",
      "memory:write",
      "run:end",
    ]);
    for (const { event } of seen) {
      expect(event.sessionId).toBe("events");
      expect(event.agentName).toBe("assistant");
      expect(event.runId).toBe(seen[0]!.event.runId);
    }
    expect(seen[0]!.event).toMatchObject({ input: "Weather in Paris?", userId: "u1" });
    expect(seen[4]!.event).toMatchObject({
      step: 1,
      toolCall: { id: "c1", name: "get_weather", arguments: { city: "Paris" } },
    });
    expect(seen[5]!.event).toMatchObject({
      toolCallId: "c1",
      toolName: "get_weather",
      isError: false,
      result: { city: "Paris", temperature: "22°C" },
    });
    expect((seen[9]!.event as AgentEventMap["memory:write"]).messages.map((message) => message.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(seen[10]!.event).toMatchObject({
      text: "Sunny.",
      steps: 2,
      finishReason: "stop",
      usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
    });
  });

  it("never lets a throwing listener break a run", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "fine" }] }) });
    agent.on("run:start", () => {
      throw new Error("listener bug");
    });
    agent.on("step:end", async () => {
      throw new Error("async listener bug");
    });
    const result = await agent.run("hi");
    expect(result.text).toBe("fine");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveBeenCalledTimes(2);
    errors.mockRestore();
  });
});

describe("Agent streaming and aborts", () => {
  it("streams text in deltas and exposes the full stream, text and response", async () => {
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "c", name: "get_weather", arguments: { city: "Bern" } }] },
        { text: "Cold and clear in Bern." },
      ],
      chunkSize: 5,
    });
    const agent = new Agent({ model, tools: { get_weather: weather } });
    const stream = agent.stream("Weather in Bern?");
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Cold and clear in Bern.");
    const types: string[] = [];
    for await (const part of stream.fullStream) types.push(part.type);
    expect(types.filter((type) => type !== "text-delta" && type !== "tool-input-delta")).toEqual([
      "step-start",
      "tool-input-start",
      "tool-call",
      "tool-result",
      "step-finish",
      "step-start",
      "step-finish",
      "finish",
    ]);
    expect(await stream.text).toBe("Cold and clear in Bern.");
    expect((await stream.response).steps).toHaveLength(2);
    expect(model.calls.every((call) => call.stream)).toBe(true);
  });

  it("stops mid-stream on abort and leaves a history the next run can use", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "c", name: "get_weather", arguments: { city: "Kyiv" } }] },
        { text: "This answer is long and will be cut off by the abort signal before it ends." },
        { text: "Fresh answer." },
      ],
      chunkSize: 3,
      chunkDelayMs: 5,
    });
    const agent = new Agent({ model, tools: { get_weather: weather }, memoryStore: store, sessionId: "abort" });
    const controller = new AbortController();
    const stream = agent.stream({ input: "Weather in Kyiv?", signal: controller.signal });
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const delta of stream.textStream) {
          received.push(delta);
          if (received.length === 3) controller.abort();
        }
      })(),
    ).rejects.toSatisfy(AbortError.isInstance);
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);
    expect(received.length).toBeLessThan(10);
    const stored = await store.getMessages("abort");
    // The user message and the completed tool step are kept; the interrupted answer is not.
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(isToolPairingValid(stored)).toBe(true);

    const next = await agent.run("Try again");
    expect(next.text).toBe("Fresh answer.");
    expect(model.calls[2]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
  });

  it("does not call the model when the signal is already aborted", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const agent = new Agent({ model });
    await expect(agent.run({ input: "hi", signal: AbortSignal.abort() })).rejects.toSatisfy(AbortError.isInstance);
    expect(model.calls).toHaveLength(0);
  });

  it("aborts a tool loop between steps", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModel({ responses: () => ({ toolCalls: [{ name: "stop_me", arguments: {} }] }) });
    const stopMe = tool({
      parameters: z.object({}),
      execute: () => {
        controller.abort();
        return "stopping";
      },
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, tools: { stop_me: stopMe }, maxSteps: 5, memoryStore: store, sessionId: "loop" });
    await expect(agent.run({ input: "go", signal: controller.signal })).rejects.toSatisfy(AbortError.isInstance);
    expect(model.calls).toHaveLength(1);
    const stored = await store.getMessages("loop");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });
});

describe("Agent configuration errors", () => {
  it("names the known providers for an unknown model prefix", () => {
    let caught: unknown;
    try {
      new Agent({ model: "nosuchprovider/some-model" });
    } catch (error) {
      caught = error;
    }
    expect(NoSuchProviderError.isInstance(caught)).toBe(true);
    const error = caught as NoSuchProviderError;
    expect(error.providerId).toBe("nosuchprovider");
    expect(error.modelId).toBe("some-model");
    expect(error.message).toContain("Known providers:");
  });

  it("rejects a missing model, a malformed model string and bad numbers", () => {
    expect(() => new Agent({} as never)).toThrow(/needs a `model`/);
    expect(() => new Agent({ model: "gpt-4o" })).toThrow(/provider\/model/);
    expect(() => new Agent({ model: new MockLanguageModel({ responses: [] }), maxSteps: 0 })).toThrow(
      /maxSteps must be a positive integer/,
    );
    expect(() => new Agent({ model: new MockLanguageModel({ responses: [] }), memory: "nope" as never })).toThrow(
      /memory must be one of/,
    );
  });

  it("rejects bad run settings at construction, before any run", () => {
    const model = new MockLanguageModel({ responses: [] });
    const bad: [Partial<AgentOptions>, string][] = [
      [{ concurrency: "wait" as never }, "concurrency"],
      [{ sessionLockTimeoutMs: -1 }, "sessionLockTimeoutMs"],
      [{ sessionLockTimeoutMs: 1.5 }, "sessionLockTimeoutMs"],
      [{ sessionLockTimeoutMs: Number.NaN }, "sessionLockTimeoutMs"],
      [{ recallLimit: 0 }, "recallLimit"],
      [{ recallLimit: 2.5 }, "recallLimit"],
      [{ memoryProviderTimeoutMs: -5 }, "memoryProviderTimeoutMs"],
      [{ memoryProviderTimeoutMs: Number.POSITIVE_INFINITY }, "memoryProviderTimeoutMs"],
    ];
    for (const [options, argument] of bad) {
      let caught: unknown;
      try {
        new Agent({ model, ...options });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught), argument).toBe(true);
      expect((caught as InvalidArgumentError).argument).toBe(argument);
    }
    expect(
      () =>
        new Agent({
          model,
          concurrency: "reject",
          sessionLockTimeoutMs: 0,
          recallLimit: 1,
          memoryProviderTimeoutMs: 1,
        }),
    ).not.toThrow();
  });

  it("builds every strategy name", () => {
    // Every built-in strategy name is available.
    for (const memory of ["sliding_window", "token_window", "summary", "full"] as const) {
      expect(new Agent({ model: new MockLanguageModel({ responses: [] }), memory }).strategy.name).toBe(memory);
    }
  });
});

describe("Agent memory providers", () => {
  it("degrades the turn when the provider hangs or throws", async () => {
    const model = new MockLanguageModel({ responses: () => ({ text: "still answered" }) });
    const hanging = new Agent({
      model,
      memoryProviderTimeoutMs: 50,
      memoryProvider: { type: "hang", read: () => new Promise(() => {}), write: async () => {} },
    });
    const errors: AgentEventMap["memory:error"][] = [];
    hanging.on("memory:error", (event) => errors.push(event));
    expect((await hanging.run("hi")).text).toBe("still answered");
    expect(errors[0]).toMatchObject({ source: "hang", operation: "read" });

    const failing = new Agent({
      model,
      memoryProvider: {
        type: "broken",
        read: async () => {
          throw new Error("503");
        },
        write: async () => {
          throw new Error("503");
        },
      },
    });
    const failures: string[] = [];
    failing.on("memory:error", (event) => failures.push(event.operation));
    expect((await failing.run("hi")).text).toBe("still answered");
    expect(failures).toEqual(["read", "write"]);
  });
});
