import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { EmbeddingModel } from "../models/embedding-model";
import type { MemoryRecord } from "./memory-provider";
import { SemanticMemoryProvider } from "./semantic-memory-provider";

// Lexically the query ranks A (three of its words), B (two), C (one); by vectors the order is reversed.
const MEMORIES: Record<string, number[]> = {
  "apple banana cherry": [0, 1],
  "apple banana kiwi": [0.7, 0.7],
  "apple kiwi mango": [1, 0],
};
const QUERY = "apple banana cherry?";

/** An embedder answering from the table above (the query points at C), recording each call. */
function scriptedEmbedder(calls: string[][]): EmbeddingModel {
  return {
    provider: "scripted",
    modelId: "table",
    doEmbed: async ({ values }) => {
      calls.push(values);
      return { embeddings: values.map((value) => (value === QUERY ? [1, 0] : MEMORIES[value]!)) };
    },
  };
}

async function read(options: ConstructorParameters<typeof SemanticMemoryProvider>[0], calls: string[][] = []) {
  const provider = new SemanticMemoryProvider({ embedder: scriptedEmbedder(calls), ...options });
  await provider.write(
    Object.keys(MEMORIES).map((content, index) => ({
      id: `m${index + 1}`,
      role: "user" as const,
      content,
      timestamp: 1_000 + index,
    })),
    { sessionId: "s" },
  );
  return provider.read({ sessionId: "s", query: QUERY, limit: 3 });
}
const order = (records: MemoryRecord[]) => records.map((record) => record.content);

describe("SemanticMemoryProvider hybrid ranking: the vector list's weight", () => {
  it("orders by lexical rank at a low weight and by vector rank at a high one", async () => {
    const lexicalOrder = Object.keys(MEMORIES);
    expect(order(await read({ ranking: "lexical" }))).toEqual(lexicalOrder);
    expect(order(await read({ ranking: "vector" }))).toEqual([...lexicalOrder].reverse());
    expect(order(await read({ vectorWeight: 0.2 }))).toEqual(lexicalOrder);
    expect(order(await read({}))).toEqual(lexicalOrder);
    expect(order(await read({ vectorWeight: 2 }))).toEqual([...lexicalOrder].reverse());
    const fused = await read({ vectorWeight: 0.5 });
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 0.5 / 63, 12);
  });

  it("at weight 0 reads exactly as the lexical ranking, without embedding the query", async () => {
    const calls: string[][] = [];
    const weightless = await read({ vectorWeight: 0 }, calls);
    const lexical = await read({ ranking: "lexical" });
    const comparable = (records: MemoryRecord[]) => records.map(({ id: _id, ...record }) => record);
    expect(comparable(weightless)).toEqual(comparable(lexical));
    // The write embedded the memories (so the weight can be raised later); the read embedded nothing.
    expect(calls).toEqual([Object.keys(MEMORIES)]);
  });

  it("refuses a negative or non-finite weight, naming the option", () => {
    for (const vectorWeight of [-0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new SemanticMemoryProvider({ vectorWeight })).toThrow(InvalidArgumentError);
      expect(() => new SemanticMemoryProvider({ vectorWeight })).toThrow(/vectorWeight/);
    }
  });
});
