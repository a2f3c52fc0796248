import { describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import { BufferMemory } from "./buffer-memory";
import { SlidingWindowMemory } from "./sliding-window";
import { SummarizingMemory } from "./summarizing-memory";
import { MockLanguageModel } from "../testing/mock-language-model";

describe("the conversation memories' storage, through the store adapter", () => {
  it("a store failure is a StoreError naming the store and the session", async () => {
    class BrokenStore extends InMemoryStore {
      override async appendMessages(): Promise<void> {
        throw new Error("connection reset");
      }
    }
    const memory = new SlidingWindowMemory({ store: new BrokenStore() });
    const error = await memory
      .write([{ role: "user", content: "hi" }], { sessionId: "s" })
      .catch((thrown: unknown) => thrown);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ store: "BrokenStore", operation: "appendMessages", sessionId: "s" });
  });

  it("concurrent writes to a store with only the six methods lose nothing and store each message once", async () => {
    const store = sixMethodStore();
    const memory = new SlidingWindowMemory({ store });
    const writes = Array.from({ length: 8 }, (_, index) =>
      memory.write(
        [
          { id: `u${index}`, role: "user", content: `question ${index}` },
          { id: `a${index}`, role: "assistant", content: `answer ${index}` },
        ],
        { sessionId: "s" },
      ),
    );
    await Promise.all(writes);
    // Written again (as an agent given the memory writes the whole conversation back): nothing doubles.
    await memory.write([{ id: "u0", role: "user", content: "question 0" }], { sessionId: "s" });
    const stored = (await store.getMessages("s")).map((message) => message.id).sort();
    expect(stored).toEqual(
      Array.from({ length: 8 }, (_, index) => [`a${index}`, `u${index}`])
        .flat()
        .sort(),
    );
  });

  it("each memory answers the contract with its own window and type", async () => {
    const store = new InMemoryStore();
    const summarizing = new SummarizingMemory({ store, summaryModel: new MockLanguageModel({ responses: [] }) });
    const buffer = new SlidingWindowMemory({ maxMessages: 1, store });
    await buffer.write(
      [
        { role: "user", content: "one" },
        { role: "assistant", content: "two" },
        { role: "user", content: "three" },
        { role: "assistant", content: "four" },
      ],
      { sessionId: "s" },
    );
    expect((await buffer.read({ sessionId: "s" })).map((message) => message.content)).toEqual(["three", "four"]);
    expect((await summarizing.read({ sessionId: "s" })).map((message) => message.content)).toEqual([
      "one",
      "two",
      "three",
      "four",
    ]);
    expect([buffer.type, summarizing.type, new BufferMemory().type]).toEqual([
      "sliding_window",
      "summarizing",
      "buffer",
    ]);
    expect((await buffer.entries("s")).map((entry) => entry.messages.length)).toEqual([4]);
    await summarizing.clear("s");
    expect(await buffer.read({ sessionId: "s" })).toEqual([]);
  });
});
