// The agent's run loop through the model boundary (the exact request, tool calls and their results,
// maxSteps) and the configuration errors it reports at construction.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "./agent";
import type { AgentOptions } from "./agent-options";
import { tool } from "../tools/tool";
import { InMemoryStore } from "../stores/in-memory-store";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { MockLanguageModel } from "../testing/mock-language-model";
import { NoSuchProviderError } from "../errors/no-such-provider-error";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { weather, withoutMeta } from "./__fixtures__/run-fixtures";

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
