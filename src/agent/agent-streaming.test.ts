// A streamed agent run (text deltas, the full stream, the response) and aborts: mid-stream, before the
// model is called, and between the steps of a tool loop.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent";
import { tool } from "../tools/tool";
import { InMemoryStore } from "../stores/in-memory-store";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { MockLanguageModel } from "../testing/mock-language-model";
import { AbortError } from "../errors/abort-error";
import { weather } from "./__fixtures__/run-fixtures";

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
