// stopWhen: conditions asked after each step whose tool calls ran (any true stops), maxSteps still
// the cap, the condition that stopped the run in result.stoppedBy, and a stored history that keeps
// the pairing rule.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import { streamText } from "../streaming/stream-text";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import { weather } from "./__fixtures__/run-fixtures";
import { hasToolCall, type StopConditionState, stepCountIs, tokenBudgetIs } from "./stop-conditions";

const finish = tool({ parameters: z.object({ answer: z.string() }), execute: async ({ answer }) => answer });
const callWeather = (id: string) => ({ toolCalls: [{ id, name: "get_weather", arguments: { city: "Oslo" } }] });
const callFinish = (id: string) => ({ toolCalls: [{ id, name: "finish", arguments: { answer: "done" } }] });

describe("stopWhen", () => {
  it("hasToolCall stops the run after the step that called the tool: its result stored, the pairing rule kept", async () => {
    const model = new MockLanguageModel({
      responses: [callWeather("c1"), callFinish("c2"), { text: "never asked" }],
    });
    const memoryStore = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore,
      sessionId: "s",
      tools: { get_weather: weather, finish },
      stopWhen: hasToolCall("finish"),
    });
    const result = await agent.run("Plan it");
    expect(model.calls).toHaveLength(2);
    expect(result.steps).toHaveLength(2);
    expect(result.stoppedBy).toEqual({ condition: 'hasToolCall("finish")', index: 0 });
    expect(result.finishReason).toBe("tool-calls");
    const stored = await memoryStore.getMessages("s");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(stored.at(-1)).toMatchObject({ role: "tool", toolCallId: "c2", content: "done" });
    expect(isToolPairingValid(stored)).toBe(true);
    // The next run sends that history as is.
    const next = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model: next, memoryStore, sessionId: "s", tools: { get_weather: weather, finish } }).run("And?");
    expect(isToolPairingValid(next.calls[0]!.messages)).toBe(true);
  });

  it("takes a list (any true stops) and reports which one stopped the run", async () => {
    const model = new MockLanguageModel({ responses: [callWeather("c1"), callWeather("c2"), callWeather("c3")] });
    const agent = new Agent({
      model,
      tools: { get_weather: weather, finish },
      stopWhen: [hasToolCall("finish"), stepCountIs(2)],
    });
    const ends: unknown[] = [];
    agent.on("run:end", (event) => ends.push(event.stoppedBy));
    const result = await agent.run("Go");
    expect(model.calls).toHaveLength(2);
    expect(result.stoppedBy).toEqual({ condition: "stepCountIs(2)", index: 1 });
    expect(ends).toEqual([{ condition: "stepCountIs(2)", index: 1 }]);
  });

  it("is asked with { steps, lastStep, usage } after each step whose calls ran, never after an answer", async () => {
    const seen: StopConditionState[] = [];
    const model = new MockLanguageModel({
      responses: [
        { ...callWeather("c1"), usage: { inputTokens: 10, outputTokens: 5 } },
        { text: "It is mild.", usage: { inputTokens: 20, outputTokens: 3 } },
      ],
    });
    const agent = new Agent({
      model,
      tools: { get_weather: weather },
      stopWhen: function watch(state) {
        seen.push({ ...state, steps: [...state.steps] });
        return false;
      },
    });
    const result = await agent.run("Weather?");
    expect(result.text).toBe("It is mild.");
    expect(result.stoppedBy).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.steps.map((step) => step.stepNumber)).toEqual([1]);
    expect(seen[0]!.lastStep.toolCalls.map((call) => call.id)).toEqual(["c1"]);
    expect(seen[0]!.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it("tokenBudgetIs stops once the run's total tokens reach the budget", async () => {
    const model = new MockLanguageModel({
      responses: [
        { ...callWeather("c1"), usage: { inputTokens: 40, outputTokens: 10 } },
        { ...callWeather("c2"), usage: { inputTokens: 45, outputTokens: 10 } },
        { ...callWeather("c3"), usage: { inputTokens: 50, outputTokens: 10 } },
      ],
    });
    const agent = new Agent({ model, tools: { get_weather: weather }, stopWhen: tokenBudgetIs(100) });
    const result = await agent.run("Go");
    expect(model.calls).toHaveLength(2);
    expect(result.usage.totalTokens).toBe(105);
    expect(result.stoppedBy).toEqual({ condition: "tokenBudgetIs(100)", index: 0 });
  });

  it("a run's stopWhen replaces the agent's; maxSteps stays the hard cap", async () => {
    const script = () => [callWeather("c1"), callWeather("c2"), callWeather("c3"), callWeather("c4")];
    const model = new MockLanguageModel({ responses: script() });
    const agent = new Agent({ model, tools: { get_weather: weather }, stopWhen: stepCountIs(3), maxSteps: 2 });
    const capped = await agent.run("Go");
    expect(model.calls).toHaveLength(2);
    expect(capped.stoppedBy).toBeUndefined();
    expect(capped.finishReason).toBe("tool-calls");

    const perRun = new MockLanguageModel({ responses: script() });
    const other = new Agent({ model: perRun, tools: { get_weather: weather }, stopWhen: stepCountIs(3) });
    const result = await other.run({ input: "Go", stopWhen: [() => false, stepCountIs(1)] });
    expect(perRun.calls).toHaveLength(1);
    expect(result.stoppedBy).toEqual({ condition: "stepCountIs(1)", index: 1 });
  });

  it("names an anonymous condition by its place in the list", async () => {
    const model = new MockLanguageModel({ responses: [callWeather("c1"), callWeather("c2")] });
    const agent = new Agent({ model, tools: { get_weather: weather } });
    const result = await agent.run({
      input: "Go",
      stopWhen: [
        stepCountIs(5),
        (
          () => () =>
            true
        )(),
      ],
    });
    expect(result.stoppedBy).toEqual({ condition: "stopWhen[1]", index: 1 });
  });

  it("a run with output that a condition stops before the object fails with NoObjectGeneratedError (stopped)", async () => {
    const model = new MockLanguageModel({ responses: [callWeather("c1"), { object: { ok: true } }] });
    const agent = new Agent({ model, tools: { get_weather: weather }, stopWhen: stepCountIs(1) });
    await expect(agent.run({ input: "Go", output: z.object({ ok: z.boolean() }) })).rejects.toMatchObject({
      name: "NoObjectGeneratedError",
      reason: "stopped",
      message: expect.stringContaining("stepCountIs(1)"),
    });
  });

  it("stops a streamText run the same way", async () => {
    const model = new MockLanguageModel({ responses: [callFinish("c1"), { text: "never asked" }] });
    const stream = streamText({
      model,
      messages: [{ role: "user", content: "Go" }],
      tools: { finish },
      stopWhen: hasToolCall("finish"),
    });
    const response = await stream.response;
    expect(model.calls).toHaveLength(1);
    expect(response.stoppedBy).toEqual({ condition: 'hasToolCall("finish")', index: 0 });
  });

  it("refuses a stopWhen that is not a condition or a list of them, at construction and per run", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "x" }] });
    for (const stopWhen of [3, [], [stepCountIs(1), "soon"]]) {
      const error = (() => {
        try {
          new Agent({ model, stopWhen: stopWhen as never });
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toMatch(/^stopWhen/);
    }
    expect(
      (() => {
        try {
          new Agent({ model, stopWhen: [stepCountIs(1), "soon" as never] });
        } catch (thrown) {
          return (thrown as InvalidArgumentError).argument;
        }
      })(),
    ).toBe("stopWhen.1");
    await expect(new Agent({ model }).run({ input: "x", stopWhen: "never" as never })).rejects.toMatchObject({
      name: "InvalidArgumentError",
      argument: "stopWhen",
    });
    expect(model.calls).toHaveLength(0);
  });
});
