// The AgentCore document's "Using VectorMemoryProvider" example (seeds/001, vector-memory.ts), as written.
import { beforeAll, describe, expect, it } from "vitest";
import { Agent, VectorMemoryProvider, registerProvider, type TextPart } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

/** The recalled memories a call carried: the first text part of its turn's user message. */
const recalledIn = (call: MockLanguageModel["calls"][number]) => (call.messages.at(-1)!.content as TextPart[])[0]!.text;

// "openai/gpt-4o" answers from a scripted model here (no key, no network); the example is unchanged.
let model: MockLanguageModel;
beforeAll(() => {
  model = new MockLanguageModel({ responses: () => ({ text: "OK." }) });
  registerProvider("openai", () => model);
});

describe("AgentCore document: VectorMemoryProvider", () => {
  it("runs the example as written: string hits are recalled, insert(text, metadata) gets each memory", async () => {
    const inserted: { text: string; metadata: unknown }[] = [];
    // --- vector-memory.ts, as in the document ---
    // Connect any vector database (Pinecone, Qdrant, ChromaDB, Weaviate)
    const vectorProvider = new VectorMemoryProvider({
      search: async (query: string, limit = 5) => {
        // Perform vector similarity search in your database
        return ["User built an e-commerce dashboard using AgentCore and Tailwind."];
      },
      insert: async (text: string, metadata) => {
        // Generate vector embedding and store in database
        inserted.push({ text, metadata });
      },
    });

    const agent = new Agent({
      model: "openai/gpt-4o",
      memoryProvider: vectorProvider,
    });
    // --- end of the example ---
    const events: unknown[] = [];
    agent.on("memory:error", (event) => events.push(event));
    await agent.run({ input: "What did I build?", sessionId: "s1" });
    expect(events).toEqual([]);
    expect(recalledIn(model.calls.at(-1)!)).toContain(
      "User built an e-commerce dashboard using AgentCore and Tailwind.",
    );
    expect(inserted.map((item) => item.text)).toEqual(["What did I build?", "OK."]);
    expect(inserted[0]!.metadata).toMatchObject({ sessionId: "s1", role: "user", tags: [] });
  });

  it("recalls from an in-memory array standing in for the vector database", async () => {
    const rows: { text: string; metadata: { sessionId?: string } }[] = [];
    const vectorProvider = new VectorMemoryProvider({
      search: async (query: string, limit = 5) =>
        rows
          .filter((row) => row.text.toLowerCase().includes("dashboard"))
          .slice(0, limit)
          .map((row) => row.text),
      insert: async (text: string, metadata) => {
        rows.push({ text, metadata });
      },
    });
    const agent = new Agent({ model: "openai/gpt-4o", memoryProvider: vectorProvider });
    await agent.run({ input: "I built a sales dashboard with Tailwind.", sessionId: "s2" });
    await agent.run({ input: "Which dashboard was it?", sessionId: "s2" });
    expect(recalledIn(model.calls.at(-1)!)).toMatch(
      /^<recalled_memories>[\s\S]*I built a sales dashboard with Tailwind\./,
    );
  });
});
