import { describe, expect, it } from "vitest";
import { MockEmbeddingModel } from "../testing/mock-embedding-model";
import { testMemoryProvider } from "../testing/test-memory-provider";
import {
  VectorMemoryProvider,
  type VectorMemoryHit,
  type VectorMemoryItem,
  type VectorSearchOptions,
} from "./vector-memory-provider";

/** A stand-in for the user's vector database: an array, cosine similarity, metadata filters. */
function fakeVectorDatabase(options: { ignoreFilter?: boolean } = {}) {
  const items = new Map<string, VectorMemoryItem>();
  const queries: ({ text: string; limit: number } & VectorSearchOptions)[] = [];
  const matches = (item: VectorMemoryItem, filter: { sessionId?: string; userId?: string; tags?: string[] }) =>
    (filter.sessionId === undefined || item.metadata.sessionId === filter.sessionId) &&
    (filter.userId === undefined || item.metadata.userId === filter.userId) &&
    (filter.tags ?? []).every((tag) => item.metadata.tags.includes(tag));
  const cosine = (left: number[], right: number[]) => {
    let dot = 0;
    let leftNorm = 0;
    let rightNorm = 0;
    left.forEach((value, index) => {
      dot += value * right[index]!;
      leftNorm += value * value;
      rightNorm += right[index]! * right[index]!;
    });
    return dot / (Math.sqrt(leftNorm * rightNorm) || 1);
  };
  return {
    items,
    queries,
    insert: async (
      content: string,
      metadata: VectorMemoryItem["metadata"],
      { id, vector, messageId }: { id: string; vector?: number[]; messageId?: string },
    ) => {
      items.set(id, { id, content, metadata, ...(vector ? { vector } : {}), ...(messageId ? { messageId } : {}) });
    },
    search: async (text: string, limit: number, query: VectorSearchOptions): Promise<VectorMemoryHit[]> => {
      queries.push({ text, limit, ...query });
      return [...items.values()]
        .filter((item) => options.ignoreFilter || matches(item, query.filter))
        .map((item) => ({
          id: item.id,
          content: item.content,
          messageId: item.messageId,
          metadata: { ...item.metadata },
          score: cosine(query.vector!, item.vector!),
        }))
        .sort((left, right) => right.score - left.score)
        .slice(0, limit);
    },
    delete: async (filter: { sessionId?: string; userId?: string }) => {
      for (const [id, item] of items) if (matches(item, filter)) items.delete(id);
    },
    list: async (filter: { sessionId?: string; userId?: string }) =>
      [...items.values()].filter((item) => matches(item, filter)),
  };
}

testMemoryProvider(
  "VectorMemoryProvider (session scope)",
  () => new VectorMemoryProvider({ ...fakeVectorDatabase(), embedder: new MockEmbeddingModel() }),
  {
    scope: "session",
  },
);
testMemoryProvider(
  "VectorMemoryProvider (user scope)",
  () => new VectorMemoryProvider({ ...fakeVectorDatabase(), embedder: new MockEmbeddingModel(), scope: "user" }),
  { scope: "user" },
);

describe("VectorMemoryProvider", () => {
  it("hands the database embedded items with their scope and metadata, and a scoped query", async () => {
    const database = fakeVectorDatabase();
    const provider = new VectorMemoryProvider({
      ...database,
      embedder: new MockEmbeddingModel({ dimensions: 8 }),
      scope: "user",
    });
    await provider.write(
      [
        { id: "m1", role: "user", content: "I keep bees.", timestamp: 5 },
        { id: "m2", role: "tool", toolCallId: "c", name: "t", content: "ignored" },
      ],
      { sessionId: "s", userId: "u", tags: ["hobby"], agentName: "helper" },
    );
    const [item] = [...database.items.values()];
    expect(database.items.size).toBe(1);
    expect(item).toMatchObject({
      content: "I keep bees.",
      messageId: "m1",
      metadata: { sessionId: "s", userId: "u", tags: ["hobby"], agentName: "helper", role: "user", createdAt: 5 },
    });
    expect(item!.vector).toHaveLength(8);
    const [record] = await provider.read({ sessionId: "other", userId: "u", query: "bees", limit: 3, tags: ["hobby"] });
    expect(record).toMatchObject({ content: "I keep bees.", messageId: "m1" });
    expect(database.queries[0]).toMatchObject({ text: "bees", filter: { userId: "u", tags: ["hobby"] }, limit: 3 });
  });

  it("drops hits of another user or session even when the database ignores the filter", async () => {
    const database = fakeVectorDatabase({ ignoreFilter: true });
    const provider = new VectorMemoryProvider({ ...database, embedder: new MockEmbeddingModel() });
    await provider.write([{ id: "a", role: "user", content: "alice secret" }], { sessionId: "sa", userId: "alice" });
    await provider.write([{ id: "b", role: "user", content: "bob secret" }], { sessionId: "sb", userId: "bob" });
    const records = await provider.read({ sessionId: "sb", userId: "bob", query: "secret", limit: 5 });
    expect(records.map((record) => record.content)).toEqual(["bob secret"]);
  });

  it("rejects a malformed hit with a typed error naming it", async () => {
    const provider = new VectorMemoryProvider({
      search: async () => [{ id: "x", text: "no content" }] as never,
      insert: async () => {},
    });
    await expect(provider.read({ sessionId: "s", query: "q" })).rejects.toMatchObject({
      name: "MemoryProviderError",
      message: expect.stringContaining("bad hit at index 0: content"),
    });
  });

  it("without an embedder passes only the text, and explains missing options", async () => {
    const queries: VectorSearchOptions[] = [];
    const provider = new VectorMemoryProvider({
      search: async (_text, _limit, query) => {
        queries.push(query);
        return [{ id: 7 as unknown as string, content: "hit" }];
      },
      insert: async () => {},
    });
    expect(await provider.read({ sessionId: "s", query: "hello" })).toEqual([
      { id: "7", content: "hit", metadata: {} },
    ]);
    expect(queries[0]!.vector).toBeUndefined();
    await expect(provider.clear()).rejects.toThrow(/delete\(filter\)/);
    expect(() => new VectorMemoryProvider({} as never)).toThrow(/search\(query, limit\)/);
  });
});

describe("VectorMemoryProvider with the AgentCore document's signatures", () => {
  it("calls insert(text, metadata, { id, abortSignal }) once per memory and search(query, limit, { filter }) with the scope", async () => {
    const inserts: unknown[][] = [];
    const searches: unknown[][] = [];
    const signal = new AbortController().signal;
    const provider = new VectorMemoryProvider({
      insert: async (...args) => void inserts.push(args),
      search: async (...args) => {
        searches.push(args);
        return ["plain string hit", { id: "r", content: "record hit", score: 0.5 }];
      },
    });
    await provider.write(
      [
        { id: "u1", role: "user", content: "first", timestamp: 1 },
        { id: "a1", role: "assistant", content: "second", timestamp: 2 },
      ],
      { sessionId: "s", userId: "u", abortSignal: signal },
    );
    expect(inserts).toHaveLength(2);
    expect(inserts[0]).toEqual([
      "first",
      { sessionId: "s", userId: "u", tags: [], role: "user", createdAt: 1 },
      { id: expect.any(String), messageId: "u1", abortSignal: signal },
    ]);
    expect(inserts[1]![0]).toBe("second");
    const records = await provider.read({ sessionId: "s", userId: "u", query: "hit", limit: 3, abortSignal: signal });
    expect(searches[0]).toEqual(["hit", 3, { filter: { sessionId: "s", userId: "u" }, abortSignal: signal }]);
    expect(records.map((record) => record.content)).toEqual(["plain string hit", "record hit"]);
    expect(records[0]!.id).toMatch(/^text:/);
  });

  it("a user-scope read drops a hit written in another session without a user id, when search ignores its filter (issue 22 item 13)", async () => {
    const rows: { content: string; metadata: Record<string, unknown> }[] = [];
    const provider = new VectorMemoryProvider({
      scope: "user",
      insert: async (content, metadata) => void rows.push({ content, metadata: { ...metadata } }),
      search: async () =>
        rows.map((row, index) => ({ id: String(index), content: row.content, metadata: row.metadata })),
    });
    await provider.write([{ role: "user", content: "anonymous secret" }], { sessionId: "someone-else" });
    await provider.write([{ role: "user", content: "alice note" }], { sessionId: "a", userId: "alice" });
    const records = await provider.read({ sessionId: "b", userId: "alice", query: "secret" });
    expect(records.map((record) => record.content)).toEqual(["alice note"]);
  });

  it("filters by key/value tags on write and read", async () => {
    const database = fakeVectorDatabase({ ignoreFilter: true });
    const provider = new VectorMemoryProvider({ ...database, embedder: new MockEmbeddingModel() });
    await provider.write([{ role: "user", content: "invoice question" }], {
      sessionId: "s",
      tags: { topic: "billing" },
    });
    await provider.write([{ role: "user", content: "login question" }], { sessionId: "s", tags: { topic: "auth" } });
    const records = await provider.read({ sessionId: "s", query: "question", tags: { topic: "billing" } });
    expect(records.map((record) => record.content)).toEqual(["invoice question"]);
    expect(database.queries[0]!.filter).toEqual({ sessionId: "s", tags: ["topic=billing"] });
    await expect(
      provider.write([{ role: "user", content: "x" }], { sessionId: "s", tags: { topic: 1 } as never }),
    ).rejects.toMatchObject({
      name: "InvalidArgumentError",
    });
  });
});
