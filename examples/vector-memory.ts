/**
 * Semantic memory on your own vector database: VectorMemoryProvider turns finished turns into
 * items and scoped queries; you supply `search` and `insert` (here an array with cosine
 * similarity stands in for pgvector, Qdrant, Pinecone, …) and an embedding model.
 *
 *   npx tsx examples/vector-memory.ts
 *
 * Offline: MockEmbeddingModel (hashed trigrams) stands in for a real embedding model such as
 * OpenAI's text-embedding-3-small.
 */
import { Agent, VectorMemoryProvider } from "agentcore";
import type { VectorMemoryItem } from "agentcore/semantic";
import { MockEmbeddingModel, MockLanguageModel } from "agentcore/testing";

const rows: VectorMemoryItem[] = []; // your table / collection

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, index) => {
    dot += value * right[index]!;
    leftNorm += value * value;
    rightNorm += right[index]! * right[index]!;
  });
  return dot / (Math.sqrt(leftNorm * rightNorm) || 1);
}

const memory = new VectorMemoryProvider({
  embedder: new MockEmbeddingModel(),
  scope: "user",
  insert: async (content, metadata, { id, vector, messageId }) => {
    rows.push({ id, content, metadata, ...(vector ? { vector } : {}), ...(messageId ? { messageId } : {}) }); // e.g. INSERT INTO memories (id, content, embedding, metadata) VALUES …
  },
  search: async (query, limit, { vector, filter }) =>
    // e.g. SELECT … WHERE metadata->>'userId' = $1 ORDER BY embedding <=> $2 LIMIT $3
    rows
      .filter(
        (row) =>
          (filter.userId === undefined || row.metadata.userId === filter.userId) &&
          (filter.sessionId === undefined || row.metadata.sessionId === filter.sessionId),
      )
      .map((row) => ({
        id: row.id,
        content: row.content,
        messageId: row.messageId,
        metadata: { ...row.metadata },
        score: cosine(vector!, row.vector!),
      }))
      .sort((left, right) => right.score - left.score)
      .slice(0, limit),
});

const model = new MockLanguageModel({ responses: () => ({ text: "OK." }) }); // we print what it was sent
const agent = new Agent({ model, memoryProvider: memory });
await agent.run({ input: "Our wifi password is on the fridge door.", sessionId: "a", userId: "u1" });
await agent.run({ input: "The car is due for a service in March.", sessionId: "b", userId: "u1" });
await agent.run({ input: "where is the wifi password?", sessionId: "c", userId: "u1" });
console.log(model.calls.at(-1)!.system);
