import { describe, expect, it } from "vitest";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent, streamDescribedRun } from "./agent";

/** A run with a caller-chosen user message id, as `streamText` makes it. */
const withId = (agent: Agent, input: string, user: string) =>
  streamDescribedRun(agent, { options: { input }, messageIds: { user } });

describe("a run whose user message id the session holds", () => {
  it("with the same content is answered from the store: no model call, nothing stored, replayed", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ text: "Hello!" }] });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    const ends: unknown[] = [];
    agent.on("run:end", (event) => ends.push(event.replayed));
    const first = await withId(agent, "Hi", "u-1").response;
    const stored = await store.getMessages("s");
    const again = await withId(agent, "Hi", "u-1").response;
    expect(model.calls).toHaveLength(1);
    expect(await store.getMessages("s")).toEqual(stored);
    expect(again).toMatchObject({ text: "Hello!", replayed: true, finishReason: "stop" });
    expect(again.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(again.messages).toEqual(stored);
    expect(first.replayed).toBeUndefined();
    expect(ends).toEqual([undefined, true]);
  });

  it("with other content is stored under a new id, told as message:renamed", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ text: "one" }, { text: "two" }] });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    const renamed: { requestedId: string; id: string }[] = [];
    agent.on("message:renamed", (event) => renamed.push(event));
    await withId(agent, "Hi", "u-1").response;
    const second = await withId(agent, "Hi again", "u-1").response;
    expect(second.text).toBe("two");
    const users = (await store.getMessages("s")).filter((message) => message.role === "user");
    expect(renamed).toEqual([expect.objectContaining({ sessionId: "s", requestedId: "u-1", id: users[1]!.id })]);
    expect(users[1]!.id).not.toBe("u-1");
  });

  it("streams the stored answer again under the stored answer's id", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ text: "Hello!" }] });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    await withId(agent, "Hi", "u-1").response;
    const answer = (await store.getMessages("s"))[1]!;
    const parts = [];
    for await (const part of withId(agent, "Hi", "u-1").fullStream) parts.push(part);
    expect(parts).toEqual([
      { type: "step-start", stepNumber: 1, messageId: answer.id },
      { type: "text-delta", delta: "Hello!" },
      // The stored message, its metadata with it: the UI stream sends that, as the first run's did.
      { type: "step-finish", stepNumber: 1, finishReason: "stop", usage: expect.any(Object), messages: [answer] },
      { type: "finish", finishReason: "stop", usage: expect.any(Object), text: "Hello!" },
    ]);
  });
});
