import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contentText } from "../messages/content-text";
import { InMemoryStore } from "../stores/in-memory-store";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import {
  expectStopAsTurnEndsIsHarmless,
  expectStopKeepsPartialAnswer,
  expectStopWithoutRunIsNoop,
} from "../../test/helpers/expect-stop-run";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { GatedModel } from "../../test/helpers/gated-model";
import { Agent } from "./agent";
import { stopRun } from "./stop-run";

describe("agent.stop / stopRun on an InMemoryStore (another request of the same process)", () => {
  it("stores the text so far as the stopped answer, aborts the model and frees the session", async () => {
    const store = new InMemoryStore();
    await expectStopKeepsPartialAnswer({ running: store, stopping: store }, "s-partial");
  });

  it("does nothing without a running turn", async () => {
    const store = new InMemoryStore();
    await expectStopWithoutRunIsNoop({ running: store, stopping: store }, "s-idle");
  });

  it("a store of your own (the six methods, the fallback backend) is stopped in its process", async () => {
    const store = sixMethodStore();
    await expectStopKeepsPartialAnswer({ running: store, stopping: store }, "s-custom");
  });

  it("a stop as the turn ends stores the answer once", async () => {
    const store = new InMemoryStore();
    await expectStopAsTurnEndsIsHarmless({ running: store, stopping: store }, "s-end");
  });

  it("agent.stop stops the agent's run; a model that ignores its signal does not hold it", async () => {
    const store = new InMemoryStore();
    const model = new GatedModel([{ text: "Hello there, world." }], { open: 2, ignoreAbort: true });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s-agent" });
    const stream = agent.stream("Hi");
    const parts: { type: string; finishReason?: string }[] = [];
    const reading = (async () => {
      for await (const part of stream.fullStream) parts.push(part);
    })();
    await model.atGate();
    await agent.stop();
    const result = await stream.response;
    await reading;
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stopped" });
    expect(result.finishReason).toBe("stopped");
    expect(result.text).toBe("Hello th");
    expect((await store.getMessages("s-agent")).map((message) => contentText(message.content))).toEqual([
      "Hi",
      "Hello th",
    ]);
  });

  it("keeps a tool call that has its result, drops one cut short, and starts no further step", async () => {
    const store = new InMemoryStore();
    let startedSlow!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      startedSlow = resolve;
    });
    const tools = {
      fast: tool({ description: "fast", parameters: z.object({}), execute: async () => "fast done" }),
      // Ignores its abort signal: the stop must not wait for it.
      slow: tool({
        description: "slow",
        parameters: z.object({}),
        execute: () => {
          startedSlow();
          return new Promise<string>(() => {});
        },
      }),
    };
    const model = new MockLanguageModel({
      responses: [
        {
          text: "Checking.",
          toolCalls: [
            { id: "call_fast", name: "fast", arguments: {} },
            { id: "call_slow", name: "slow", arguments: {} },
          ],
        },
        { text: "never asked" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, tools, maxSteps: 3 });
    const stream = agent.stream({ input: "Go", sessionId: "s-tools" });
    await slowStarted;
    await stopRun({ sessionId: "s-tools", memoryStore: store });
    const result = await stream.response;
    expect(result.finishReason).toBe("stopped");
    expect(model.calls).toHaveLength(1);
    const stored = await store.getMessages("s-tools");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(stored[1]).toMatchObject({
      content: "Checking.",
      toolCalls: [{ id: "call_fast", name: "fast" }],
      finishReason: "stopped",
    });
    expect(stored[2]).toMatchObject({ toolCallId: "call_fast", content: "fast done" });
  });

  it("a stop as the model's tool calls arrive starts no tool, and drops the calls", async () => {
    const store = new InMemoryStore();
    let executed = 0;
    const tools = {
      lookup: tool({
        description: "lookup",
        parameters: z.object({}),
        execute: async () => {
          executed++;
          return "found";
        },
      }),
    };
    const model = new MockLanguageModel({
      responses: [{ text: "Looking it up.", toolCalls: [{ id: "call_1", name: "lookup", arguments: {} }] }],
    });
    const agent = new Agent({ model, memoryStore: store, tools, maxSteps: 3 });
    // Delivered in this process at once: the stop lands between the model's answer and the tools.
    agent.on("tool:call", () => void stopRun({ sessionId: "s-calls", memoryStore: store }));
    const result = await agent.stream({ input: "Find it", sessionId: "s-calls" }).response;
    expect(result.finishReason).toBe("stopped");
    expect(executed).toBe(0);
    const stored = await store.getMessages("s-calls");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(stored[1]).toMatchObject({ content: "Looking it up.", finishReason: "stopped" });
    expect(stored[1]).not.toHaveProperty("toolCalls");
  });

  it("a caller's abort is still an abort, not a stop", async () => {
    const store = new InMemoryStore();
    const model = new GatedModel([{ text: "Hello there, world." }], { open: 1 });
    const controller = new AbortController();
    const stream = new Agent({ model, memoryStore: store }).stream({
      input: "Hi",
      sessionId: "s-abort",
      signal: controller.signal,
    });
    await model.atGate();
    controller.abort();
    await expect(stream.response).rejects.toMatchObject({ name: "AbortError" });
    expect((await store.getMessages("s-abort")).map((message) => message.role)).toEqual(["user"]);
  });
});
