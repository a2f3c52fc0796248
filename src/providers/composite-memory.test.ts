import { describe, expect, it } from "vitest";
import { MemoryProviderError } from "../errors/memory-provider-error";
import { CompositeMemory } from "./composite-memory";
import type { RecallMemoryProvider, MemoryRecord } from "./memory-provider";
import { testMemoryProvider } from "../testing/test-memory-provider";
import { SemanticMemoryProvider } from "./semantic-memory-provider";
import { BufferMemory } from "../strategies/buffer-memory";
import type { AgentMessage } from "../messages/agent-message";

testMemoryProvider(
  "CompositeMemory (two semantic providers, interleave)",
  () =>
    new CompositeMemory({ providers: [new SemanticMemoryProvider(), new SemanticMemoryProvider({ neighbours: 1 })] }),
  { scope: "session" },
);
testMemoryProvider(
  "CompositeMemory (user scope, priority, one failing member)",
  () =>
    new CompositeMemory({
      providers: [failing("down"), new SemanticMemoryProvider({ scope: "user" })],
      mergeStrategy: "priority",
    }),
  { scope: "user" },
);

function fixed(type: string, records: MemoryRecord[]): RecallMemoryProvider {
  return { type, read: async ({ limit }) => records.slice(0, limit), write: async () => {} };
}

function failing(type: string): RecallMemoryProvider {
  return {
    type,
    read: async () => {
      throw new Error(`${type} is down`);
    },
    write: async () => {
      throw new Error(`${type} is down`);
    },
  };
}

const a = fixed("a", [
  { id: "a1", content: "Alpha one" },
  { id: "a2", content: "Alpha two" },
  { id: "a3", content: "Alpha three" },
]);
const b = fixed("b", [
  { id: "b1", content: "Beta one" },
  { id: "b2", content: "Beta two" },
]);

const contents = (records: MemoryRecord[]) => records.map((record) => record.content);

describe("CompositeMemory", () => {
  it("interleaves, concatenates, or takes the first provider that has something", async () => {
    const read = (mergeStrategy: "interleave" | "concat" | "priority", providers = [a, b]) =>
      new CompositeMemory({ providers, mergeStrategy }).read({ sessionId: "s", query: "q", limit: 4 });
    expect(contents(await read("interleave"))).toEqual(["Alpha one", "Beta one", "Alpha two", "Beta two"]);
    expect(contents(await read("concat"))).toEqual(["Alpha one", "Alpha two", "Alpha three", "Beta one"]);
    expect(contents(await read("priority"))).toEqual(["Alpha one", "Alpha two", "Alpha three"]);
    expect(contents(await read("priority", [fixed("empty", []), b]))).toEqual(["Beta one", "Beta two"]);
    expect((await read("interleave"))[1]!.metadata).toEqual({ provider: "b" });
  });

  it("de-duplicates by id, by source message and by normalised content, never by prefix", async () => {
    const left = fixed("left", [
      { id: "x", content: "User prefers TypeScript." },
      { id: "y", content: "User lives in Lisbon", messageId: "m9" },
      { id: "z", content: "User likes tea" },
    ]);
    const right = fixed("right", [
      { id: "x", content: "different text, same id" },
      { id: "r2", content: "  user PREFERS typescript " },
      { id: "r3", content: "another text", messageId: "m9" },
      { id: "r4", content: "User likes tea with milk" },
    ]);
    const records = await new CompositeMemory({ providers: [left, right], mergeStrategy: "concat" }).read({
      sessionId: "s",
      query: "q",
      limit: 10,
    });
    expect(contents(records)).toEqual([
      "User prefers TypeScript.",
      "User lives in Lisbon",
      "User likes tea",
      "User likes tea with milk",
    ]);
  });

  it("gives each provider its own timeout; a slow or failing one degrades, the others answer", async () => {
    const slow: RecallMemoryProvider = {
      type: "slow",
      read: () => new Promise(() => {}),
      write: () => new Promise(() => {}),
    };
    const errors: [string, string][] = [];
    const composite = new CompositeMemory({
      providers: [{ provider: slow, timeoutMs: 30 }, failing("broken"), { provider: b, timeoutMs: 1000 }],
      // The composite's own timeout is longer than the test's: only the slow member's 30 ms lets the read end.
      timeoutMs: 600_000,
      onError: (error, context) => errors.push([context.provider, context.operation]),
    });
    expect(contents(await composite.read({ sessionId: "s", query: "q", limit: 5 }))).toEqual(["Beta one", "Beta two"]);
    expect(errors).toEqual([
      ["slow", "read"],
      ["broken", "read"],
    ]);
  });

  it("passes each provider an abort signal that fires at its timeout", async () => {
    let aborted: unknown;
    const listening: RecallMemoryProvider = {
      type: "listening",
      read: ({ abortSignal }) =>
        new Promise((_, reject) =>
          abortSignal!.addEventListener("abort", () => reject((aborted = abortSignal!.reason))),
        ),
      write: async () => {},
    };
    await new CompositeMemory({ providers: [{ provider: listening, timeoutMs: 20 }, b] }).read({
      sessionId: "s",
      query: "q",
    });
    expect(MemoryProviderError.isInstance(aborted)).toBe(true);
  });

  it("fails only when every provider fails, so the agent reports memory:error", async () => {
    const composite = new CompositeMemory({ providers: [failing("one"), failing("two")] });
    await expect(composite.read({ sessionId: "s", query: "q" })).rejects.toMatchObject({
      name: "MemoryProviderError",
      message: expect.stringContaining("one is down; two is down"),
    });
    await expect(composite.write([{ role: "user", content: "x" }], { sessionId: "s" })).rejects.toThrow(
      /Every provider/,
    );
  });

  it("writes to every provider and lists the entries of all", async () => {
    const first = new SemanticMemoryProvider();
    const second = new SemanticMemoryProvider();
    const composite = new CompositeMemory({ providers: [first, second] });
    await composite.write([{ id: "m1", role: "user", content: "hello" }], { sessionId: "s" });
    expect(await first.entries()).toHaveLength(1);
    expect(await second.entries()).toHaveLength(1);
    expect(await composite.entries({ sessionId: "s" })).toHaveLength(2);
    await composite.clear({ sessionId: "s" });
    expect(await composite.entries()).toEqual([]);
  });

  it("answers messages, as its type says, when a conversation memory is among its providers, even an empty one", async () => {
    const memory = new CompositeMemory({ providers: [new BufferMemory(), a] });
    const empty: AgentMessage[] = await memory.read({ sessionId: "nobody-yet", limit: 2 });
    expect(empty).toEqual([
      { role: "system", content: "Alpha one" },
      { role: "system", content: "Alpha two" },
    ]);
    await memory.write([{ role: "user", content: "hi" }], { sessionId: "s" });
    const read: AgentMessage[] = await memory.read({ sessionId: "s" });
    expect(read.map((message) => message.role)).toContain("user");
    expect(read.every((message) => typeof message.role === "string")).toBe(true);
  });

  it("validates its options", () => {
    expect(() => new CompositeMemory({ providers: [] })).toThrow(/non-empty array/);
    expect(() => new CompositeMemory({ providers: [a], mergeStrategy: "zip" as "concat" })).toThrow(/mergeStrategy/);
    expect(() => new CompositeMemory({ providers: [{ provider: a, timeoutMs: 0 }] })).toThrow(/timeoutMs/);
    expect(() => new CompositeMemory({ providers: [{} as RecallMemoryProvider] })).toThrow(/providers\[0\]/);
  });
});
