// The run parses InMemoryStore's own message objects (stores/stored-tail.ts) instead of a copy of
// them: what the run hands on (here to a strategy that changes it) must never be the store's, a
// bad stored record must still be refused, and a subclass's own getMessageTail must still be read.
import { describe, expect, it } from "vitest";
import { Agent } from "./agent";
import type { AgentMessage } from "../messages/agent-message";
import { StoreError } from "../errors/store-error";
import type { MessageTail } from "../stores/memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { MockLanguageModel } from "../testing/mock-language-model";

const stored: AgentMessage[] = [
  { id: "u1", role: "user", content: "look it up" },
  {
    id: "a1",
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "lookup", arguments: { query: { text: "original" } } }],
  },
  { id: "t1", role: "tool", toolCallId: "c1", name: "lookup", content: "found" },
  { id: "a2", role: "assistant", content: "here it is" },
  { id: "u2", role: "user", content: [{ type: "text", text: "and this" }] },
  { id: "a3", role: "assistant", content: "done" },
];

/** A strategy that rewrites every message it is given, nested values included, then keeps them all. */
function vandal(historyLimit: number | undefined): IMemoryStrategy {
  return {
    name: "vandal",
    ...(historyLimit === undefined ? {} : { historyLimit }),
    apply(history) {
      for (const message of history as AgentMessage[]) {
        (message as { content: unknown }).content = "changed";
        if (message.role === "assistant")
          for (const call of message.toolCalls ?? [])
            (call.arguments as { query: { text: string } }).query.text = "changed";
      }
      return { messages: [...history], dropped: [] };
    },
  };
}

describe("the run's tail read on an InMemoryStore", () => {
  it.each([
    ["a tail", 20],
    ["the whole history", undefined],
  ])("gives the run copies of %s: a strategy that changes its history changes nothing stored", async (_, limit) => {
    const store = new InMemoryStore();
    await store.appendMessages("s", structuredClone(stored));
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model, memory: vandal(limit), memoryStore: store }).run({ sessionId: "s", input: "next" });
    expect(model.calls[0]!.messages[0]!.content).toBe("changed");
    expect((await store.getMessages("s")).slice(0, stored.length)).toEqual(stored);
  });

  it("still refuses a bad stored record, naming the store", async () => {
    const store = new InMemoryStore();
    await store.appendMessages("s", [
      { id: "u1", role: "user", content: "hi" },
      { id: "x", role: "robot", content: 1 } as never,
    ]);
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "ok" }] }),
      memory: "sliding_window",
      memoryStore: store,
    });
    const error = await agent.run({ sessionId: "s", input: "next" }).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).message).toContain("bad record");
  });

  it("reads a subclass's own getMessageTail", async () => {
    class Shouting extends InMemoryStore {
      override async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
        const tail = await super.getMessageTail(sessionId, limit);
        return {
          ...tail,
          messages: tail.messages.map(
            (message) => ({ ...message, content: String(message.content).toUpperCase() }) as AgentMessage,
          ),
        };
      }
    }
    const store = new Shouting();
    await store.appendMessages("s", [
      { id: "u1", role: "user", content: "hello" },
      { id: "a1", role: "assistant", content: "hi" },
    ]);
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model, memory: "sliding_window", memoryStore: store }).run({ sessionId: "s", input: "next" });
    expect(model.calls[0]!.messages.map((message) => message.content)).toEqual(["HELLO", "HI", "next"]);
  });

  it("reads a subclass's own getMessages for the whole history", async () => {
    class Shouting extends InMemoryStore {
      override async getMessages(sessionId: string): Promise<AgentMessage[]> {
        return (await super.getMessages(sessionId)).map(
          (message) => ({ ...message, content: String(message.content).toUpperCase() }) as AgentMessage,
        );
      }
    }
    const store = new Shouting();
    await store.appendMessages("s", [
      { id: "u1", role: "user", content: "hello" },
      { id: "a1", role: "assistant", content: "hi" },
    ]);
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model, memory: "full", memoryStore: store }).run({ sessionId: "s", input: "next" });
    expect(model.calls[0]!.messages.map((message) => message.content)).toEqual(["HELLO", "HI", "next"]);
  });
});
