import { describe, expect, it } from "vitest";
import { Agent } from "../agent/agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { streamText, type StreamTextFinishEvent } from "./stream-text";

// ai 7 renamed names that streamText and agent.stream mirror (its migration guide, "onFinish
// Renamed to onEnd", "system Renamed to instructions", "fullStream Renamed to stream"): both names
// work, and the new one wins where both are given, as in ai 7.

const user = (content: string) => [{ role: "user" as const, content }];

describe("streamText with ai 7's names", () => {
  it("calls onEnd once the run is stored, with the same event as onFinish", async () => {
    const store = new InMemoryStore();
    let ended!: (value: { event: StreamTextFinishEvent; stored: string[] }) => void;
    const end = new Promise<{ event: StreamTextFinishEvent; stored: string[] }>((resolve) => (ended = resolve));
    const result = streamText({
      model: new MockLanguageModel({ responses: [{ text: "Stored." }] }),
      messages: user("Hi"),
      memoryStore: store,
      sessionId: "end",
      onEnd: async (event) => {
        ended({ event, stored: (await store.getMessages("end")).map((message) => message.role) });
      },
    });
    const response = await result.response;
    const { event, stored } = await end;
    expect(stored).toEqual(["user", "assistant"]);
    expect(event).toEqual({ response, messages: response.messages, text: "Stored.", usage: response.usage });
  });

  it("calls only onEnd when onFinish is given too; onFinish alone still works", async () => {
    const calls: string[] = [];
    // Each run's callback settles its promise; the runs go one after the other.
    await new Promise<void>((resolve) => {
      streamText({
        model: new MockLanguageModel({ responses: [{ text: "One." }] }),
        messages: user("Hi"),
        onEnd: () => {
          calls.push("onEnd");
          resolve();
        },
        onFinish: () => {
          calls.push("onFinish");
          resolve();
        },
      });
    });
    await new Promise<void>((resolve) => {
      streamText({
        model: new MockLanguageModel({ responses: [{ text: "Two." }] }),
        messages: user("Hi"),
        onFinish: ({ text }) => {
          calls.push(`onFinish ${text}`);
          resolve();
        },
      });
    });
    expect(calls).toEqual(["onEnd", "onFinish Two."]);
  });

  it("takes the system prompt as instructions, over system when both are given", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "a" }, { text: "b" }] });
    await streamText({ model, messages: user("Hi"), instructions: "Be terse." }).response;
    await streamText({ model, messages: user("Hi"), instructions: "Be terse.", system: "Be verbose." }).response;
    expect(model.calls.map((call) => call.system)).toEqual(["Be terse.", "Be terse."]);
  });

  it("gives every part as stream, as fullStream does (streamText and agent.stream)", async () => {
    const result = streamText({
      model: new MockLanguageModel({ responses: [{ text: "Parts." }] }),
      messages: user("Hi"),
    });
    const fromStream: string[] = [];
    for await (const part of result.stream) fromStream.push(part.type);
    const fromFullStream: string[] = [];
    for await (const part of result.fullStream) fromFullStream.push(part.type);
    expect(fromStream).toEqual(fromFullStream);
    expect(fromStream).toContain("text-delta");

    const agentStream = new Agent({ model: new MockLanguageModel({ responses: [{ text: "Agent." }] }) }).stream("Hi");
    const deltas: string[] = [];
    for await (const part of agentStream.stream) if (part.type === "text-delta") deltas.push(part.delta);
    expect(deltas.join("")).toBe("Agent.");
  });
});
