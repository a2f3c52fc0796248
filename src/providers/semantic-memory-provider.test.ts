import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import type { EmbeddingModel } from "../models/embedding-model";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";
import { testMemoryProvider } from "../testing/test-memory-provider";
import { SemanticMemoryProvider } from "./semantic-memory-provider";
import { MockEmbeddingModel } from "../testing/mock-embedding-model";

testMemoryProvider("SemanticMemoryProvider (lexical, session scope)", () => new SemanticMemoryProvider(), {
  scope: "session",
});
testMemoryProvider(
  "SemanticMemoryProvider (lexical, user scope)",
  () => new SemanticMemoryProvider({ scope: "user" }),
  { scope: "user" },
);
testMemoryProvider(
  "SemanticMemoryProvider (hybrid, toy embedder)",
  () => new SemanticMemoryProvider({ embedder: toyEmbedder() }),
  {
    scope: "session",
  },
);

function toyEmbedder(calls: string[][] = []): EmbeddingModel {
  const model = new MockEmbeddingModel({ maxValuesPerCall: 3 });
  return {
    provider: model.provider,
    modelId: model.modelId,
    maxValuesPerCall: 3,
    doEmbed: async (call) => {
      calls.push(call.values);
      return model.doEmbed(call);
    },
  };
}

function turn(id: string, role: "user" | "assistant", content: string): AgentMessage {
  return { id, role, content, timestamp: Number(id.replace(/\D/g, "")) || 0 };
}

describe("SemanticMemoryProvider", () => {
  it("ranks by stemmed terms, ignores stop words, and carries messageId", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write(
      [
        turn("m1", "user", "What did you do this weekend?"),
        turn("m2", "assistant", "I went hiking in the mountains with my sister."),
        turn("m3", "user", "We are painting the kitchen walls blue."),
      ],
      { sessionId: "s" },
    );
    const [best] = await provider.read({ sessionId: "s", query: "Who hikes?", limit: 1 });
    expect(best).toMatchObject({ messageId: "m2", content: "I went hiking in the mountains with my sister." });
    expect(best!.score).toBeGreaterThan(0);
    // Only stop words: nothing to match.
    expect(await provider.read({ sessionId: "s", query: "what did you do", limit: 3 })).toEqual([]);
  });

  it("lends a hit's score to its neighbouring turns, and returns neighbours with a hit when asked", async () => {
    const messages = [
      turn("m1", "user", "Where did you buy that lamp?"),
      turn("m2", "assistant", "At a flea market downtown, last Sunday."),
      turn("m3", "user", "Unrelated: the train was late."),
    ];
    const plain = new SemanticMemoryProvider({ index: new InMemorySemanticIndex({ contextWeight: 0 }) });
    await plain.write(messages, { sessionId: "s" });
    expect(
      (await plain.read({ sessionId: "s", query: "lamp bought", limit: 5 })).map((record) => record.messageId),
    ).toEqual(["m1"]);

    const contextual = new SemanticMemoryProvider();
    await contextual.write(messages, { sessionId: "s" });
    expect(
      (await contextual.read({ sessionId: "s", query: "lamp bought", limit: 5 })).map((record) => record.messageId),
    ).toEqual(["m1", "m2", "m3"]);

    const withNeighbours = new SemanticMemoryProvider({ neighbours: { before: 0, after: 1 } });
    await withNeighbours.write(messages, { sessionId: "s" });
    const [record] = await withNeighbours.read({ sessionId: "s", query: "lamp", limit: 1 });
    expect(record!.content).toBe("Where did you buy that lamp?\nAt a flea market downtown, last Sunday.");
    expect(record!.metadata).toMatchObject({ neighbourMessageIds: ["m2"] });
  });

  it("replaces a memory written again with the same message id, in place", async () => {
    const provider = new SemanticMemoryProvider({ neighbours: 1 });
    await provider.write(
      [turn("m1", "user", "alpha"), turn("m2", "assistant", "bravo draft"), turn("m3", "user", "charlie")],
      { sessionId: "s" },
    );
    await provider.write([turn("m2", "assistant", "bravo final")], { sessionId: "s" });
    const entries = await provider.entries({ sessionId: "s" });
    expect(entries.map((entry) => entry.content)).toEqual(["alpha", "bravo final", "charlie"]);
    const [record] = await provider.read({ sessionId: "s", query: "bravo", limit: 5 });
    expect(record!.content).toBe("alpha\nbravo final\ncharlie");
  });

  it("skips tool and system messages and empty content, and returns the latest memories for an empty query", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write(
      [
        { id: "sys", role: "system", content: "secret instructions" },
        turn("m1", "user", "first"),
        { id: "a1", role: "assistant", content: "", toolCalls: [{ id: "c1", name: "t", arguments: {} }] },
        { id: "t1", role: "tool", toolCallId: "c1", name: "t", content: "tool output" },
        turn("m2", "assistant", "second"),
      ],
      { sessionId: "s" },
    );
    expect((await provider.entries()).map((entry) => entry.messageId)).toEqual(["m1", "m2"]);
    expect((await provider.read({ sessionId: "s", limit: 1 })).map((record) => record.messageId)).toEqual(["m2"]);
  });

  it("embeds in batches and fuses lexical and vector ranks", async () => {
    const calls: string[][] = [];
    const provider = new SemanticMemoryProvider({ embedder: toyEmbedder(calls) });
    await provider.write(
      [
        "The dog barked at the mailman.",
        "Stock markets fell sharply today.",
        "Our puppy loves the park.",
        "Recipes for sourdough bread.",
      ].map((content, index) => turn(`m${index + 1}`, "user", content)),
      { sessionId: "s" },
    );
    expect(calls.map((batch) => batch.length)).toEqual([3, 1]);
    const records = await provider.read({ sessionId: "s", query: "sourdough bread recipes", limit: 2 });
    expect(records[0]!.messageId).toBe("m4");
    expect(calls.at(-1)).toEqual(["sourdough bread recipes"]);

    const vectorOnly = new SemanticMemoryProvider({ embedder: toyEmbedder(), ranking: "vector" });
    await vectorOnly.write([turn("m1", "user", "barking dogs"), turn("m2", "user", "falling markets")], {
      sessionId: "s",
    });
    expect((await vectorOnly.read({ sessionId: "s", query: "a dog barking", limit: 1 }))[0]!.messageId).toBe("m1");
  });

  it("reports an embedder that returns the wrong number of vectors", async () => {
    const provider = new SemanticMemoryProvider({
      embedder: { provider: "bad", modelId: "x", doEmbed: async () => ({ embeddings: [] }) },
    });
    await expect(provider.write([turn("m1", "user", "hello")], { sessionId: "s" })).rejects.toMatchObject({
      name: "MemoryProviderError",
    });
  });

  it("validates its options and scope ids", async () => {
    expect(() => new SemanticMemoryProvider({ neighbours: -1 })).toThrow(InvalidArgumentError);
    expect(() => new SemanticMemoryProvider({ scope: "team" as "user" })).toThrow(/scope/);
    const provider = new SemanticMemoryProvider();
    await expect(provider.write([turn("m1", "user", "x")], {})).rejects.toThrow(/needs a sessionId/);
    await expect(provider.write([turn("m1", "user", "x")], { sessionId: "bad\nid" })).rejects.toThrow(
      InvalidArgumentError,
    );
    expect(await provider.read({ query: "x" })).toEqual([]);
  });

  // How fast: bench/recall.bench.ts (BENCHMARKS.md), not a timed unit test.
  it("reads a 10k-memory index: only memories that share the query's words", async () => {
    const provider = new SemanticMemoryProvider({ scope: "user" });
    const words = [
      "garden",
      "river",
      "piano",
      "coffee",
      "travel",
      "soccer",
      "novel",
      "camera",
      "recipe",
      "doctor",
      "museum",
      "guitar",
    ];
    await provider.write(
      Array.from({ length: 10_000 }, (_, index) =>
        turn(
          `m${index}`,
          index % 2 ? "assistant" : "user",
          `note ${index} about ${words[index % 12]} and ${words[(index * 7) % 12]}`,
        ),
      ),
      { sessionId: "s", userId: "u" },
    );
    const records = await provider.read({ userId: "u", query: "piano and coffee", limit: 10 });
    expect(records).toHaveLength(10);
    for (const record of records) expect(record.content).toMatch(/\b(piano|coffee)\b/);
  });
});

describe("SemanticMemoryProvider key/value tags", () => {
  it("writes Record<string, string> tags and filters reads by key and value", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write([turn("m1", "user", "invoice question")], {
      sessionId: "s",
      tags: { topic: "billing", priority: "high" },
    });
    await provider.write([turn("m2", "user", "login question")], { sessionId: "s", tags: { topic: "auth" } });
    const billing = await provider.read({ sessionId: "s", query: "question", tags: { topic: "billing" } });
    expect(billing.map((record) => record.content)).toEqual(["invoice question"]);
    expect(
      await provider.read({ sessionId: "s", query: "question", tags: { topic: "billing", priority: "low" } }),
    ).toEqual([]);
    expect((await provider.entries({ sessionId: "s" }))[0]!.tags).toEqual(["topic=billing", "priority=high"]);
    await expect(
      provider.write([turn("m3", "user", "x")], { sessionId: "s", tags: { "a=b": "c" } }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
