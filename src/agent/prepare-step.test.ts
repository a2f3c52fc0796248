// prepareStep: per-step model, tools (a subset by name), tool choice, instructions and messages
// (only filtered or shortened: a message not given, or a list that breaks the pairing rule, is a
// PrepareStepError naming it), and what it changed in the context report.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PrepareStepError } from "../errors/prepare-step-error";
import type { AgentMessage } from "../messages/agent-message";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import { weather, withoutMeta } from "./__fixtures__/run-fixtures";
import type { PrepareStepOptions } from "./prepare-step-options";

const lookup = tool({ parameters: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` });
const callWeather = (id: string) => ({ toolCalls: [{ id, name: "get_weather", arguments: { city: "Oslo" } }] });

/** A session holding one earlier turn with a tool call: user, assistant(call old_1), tool, assistant. */
async function storedSession() {
  const memoryStore = new InMemoryStore();
  const first = new MockLanguageModel({ responses: [callWeather("old_1"), { text: "Mild." }] });
  await new Agent({ model: first, memoryStore, sessionId: "s", tools: { get_weather: weather } }).run("Weather?");
  return memoryStore;
}

async function refusal(run: Promise<unknown>): Promise<PrepareStepError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(PrepareStepError.isInstance(error)).toBe(true);
  return error as PrepareStepError;
}

describe("prepareStep", () => {
  it("is given the step number, the steps so far, the window and the model, before each call", async () => {
    const seen: PrepareStepOptions[] = [];
    const model = new MockLanguageModel({ responses: [callWeather("c1"), { text: "Done." }] });
    const agent = new Agent({
      model,
      tools: { get_weather: weather },
      prepareStep: (options) => {
        seen.push({ ...options, steps: [...options.steps], messages: [...options.messages] });
        return undefined;
      },
    });
    await agent.run("Weather?");
    expect(seen.map((options) => options.stepNumber)).toEqual([1, 2]);
    expect(seen.map((options) => options.steps.length)).toEqual([0, 1]);
    expect(seen[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(seen[0]!.model).toBe(model);
    expect(withoutMeta(model.calls[1]!.messages)).toEqual(withoutMeta(seen[1]!.messages));
  });

  it("changes a step's model, tools (a subset by name), tool choice and instructions", async () => {
    const first = new MockLanguageModel({ modelId: "first", responses: [callWeather("c1")] });
    const second = new MockLanguageModel({
      modelId: "second",
      // It calls a tool left out of this step: answered as an unknown tool, never run.
      responses: [{ toolCalls: [{ id: "c2", name: "get_weather", arguments: { city: "Rome" } }] }, { text: "ok" }],
    });
    const agent = new Agent({
      model: first,
      systemPrompt: "Agent prompt.",
      tools: { get_weather: weather, lookup },
      prepareStep: ({ stepNumber }) =>
        stepNumber === 1
          ? { toolChoice: { type: "tool", toolName: "get_weather" } }
          : { model: second, tools: ["lookup"], toolChoice: "required", system: "Step prompt." },
    });
    const result = await agent.run("Go");
    expect(first.calls).toHaveLength(1);
    expect(first.calls[0]!.toolChoice).toEqual({ type: "tool", toolName: "get_weather" });
    expect(first.calls[0]!.tools.map((definition) => definition.name)).toEqual(["get_weather", "lookup"]);
    expect(first.calls[0]!.system).toBe("Agent prompt.");
    expect(second.calls[0]!.tools.map((definition) => definition.name)).toEqual(["lookup"]);
    expect(second.calls[0]!.toolChoice).toBe("required");
    expect(second.calls[0]!.system).toBe("Step prompt.");
    expect(result.toolResults[1]).toMatchObject({ toolCallId: "c2", isError: true });
    expect(String(result.toolResults[1]!.result)).toContain('Unknown tool "get_weather"');
  });

  it("may drop whole turns of the window; the context report records what it changed", async () => {
    const memoryStore = await storedSession();
    const model = new MockLanguageModel({ responses: [{ text: "Fine." }] });
    const agent = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      recordContext: true,
      tools: { get_weather: weather },
      prepareStep: ({ messages }) => ({ messages: messages.slice(-1) }),
    });
    await agent.run("Thanks");
    expect(withoutMeta(model.calls[0]!.messages)).toEqual([{ role: "user", content: "Thanks" }]);
    const [report] = await memoryStore.getContextReports("s");
    expect(report!.prepareStep).toEqual({ changed: ["messages"], droppedCount: 4 });
    expect(report!.window).toHaveLength(1);
    expect(report!.leftOut.filter((entry) => entry.reason === "prepare-step")).toHaveLength(4);
    // The store is untouched by the filter.
    expect((await memoryStore.getMessages("s")).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("refuses a list that drops a tool result with a PrepareStepError naming the call; nothing is sent", async () => {
    const memoryStore = await storedSession();
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const agent = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      tools: { get_weather: weather },
      prepareStep: ({ messages }) => ({ messages: messages.filter((message) => message.role !== "tool") }),
    });
    const error = await refusal(agent.run("Again"));
    expect(error).toMatchObject({ problem: "broken-pairing", toolCallId: "old_1", field: "messages", stepNumber: 1 });
    expect(error.message).toContain("old_1");
    expect(model.calls).toHaveLength(0);
    expect(isToolPairingValid(await memoryStore.getMessages("s"))).toBe(true);
  });

  it("refuses a list that keeps a tool result without its call", async () => {
    const memoryStore = await storedSession();
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const agent = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      tools: { get_weather: weather },
      prepareStep: ({ messages }) => ({ messages: messages.filter((message) => message.role !== "assistant") }),
    });
    expect(await refusal(agent.run("Again"))).toMatchObject({ problem: "broken-pairing", toolCallId: "old_1" });
    expect(model.calls).toHaveLength(0);
  });

  it("refuses a message it was not given (stored history the strategy left out, a copy, its own)", async () => {
    const memoryStore = await storedSession();
    const stored = await memoryStore.getMessages("s");
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const own: AgentMessage = { role: "user", content: "injected" };
    for (const extra of [own, { ...stored[0]! }]) {
      const agent = new Agent({
        model,
        memoryStore,
        sessionId: "s",
        memory: "sliding_window",
        maxMessages: 1,
        prepareStep: ({ messages }) => ({ messages: [extra, ...messages] }),
      });
      expect(await refusal(agent.run("Again"))).toMatchObject({ problem: "unknown-message", messageIndex: 0 });
    }
    // Stored history the window left out (sliding_window of one turn): refused too.
    const outside = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      memory: "sliding_window",
      maxMessages: 1,
      prepareStep: () => ({ messages: stored }),
    });
    expect(await refusal(outside.run("Again"))).toMatchObject({ problem: "unknown-message" });
    // Reordered: refused.
    const reordered = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      prepareStep: ({ messages }) => ({ messages: [...messages].reverse() }),
    });
    expect(await refusal(reordered.run("Again"))).toMatchObject({ problem: "unknown-message" });
    expect(model.calls).toHaveLength(0);
  });

  it("refuses an unknown tool, an unknown field and a bad tool choice", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const run = (result: unknown) =>
      refusal(new Agent({ model, tools: { lookup }, prepareStep: () => result as never }).run("x"));
    expect(await run({ tools: ["lookup", "shell"] })).toMatchObject({ problem: "unknown-tool", toolName: "shell" });
    expect(await run({ activeTools: ["lookup"] })).toMatchObject({ problem: "invalid-result", field: "activeTools" });
    expect(await run({ toolChoice: "always" })).toMatchObject({ problem: "invalid-result", field: "toolChoice" });
    expect(await run({ messages: [] })).toMatchObject({ problem: "invalid-result", field: "messages" });
    expect(await run("model")).toMatchObject({ problem: "invalid-result", field: "result" });
    expect(model.calls).toHaveLength(0);
  });

  it("is refused at construction when it is not a function", () => {
    const model = new MockLanguageModel({ responses: [] });
    expect(() => new Agent({ model, prepareStep: {} as never })).toThrow(
      expect.objectContaining({ name: "InvalidArgumentError", argument: "prepareStep" }),
    );
  });
});
