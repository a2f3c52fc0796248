import { Agent, InMemoryStore } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { formatSample, measure, table, type Benchmark } from "./harness";

/** Per-turn overhead of the run loop itself, the model answering instantly. */
export const benchmark: Benchmark = {
  title: "Run loop overhead (in-memory store, full memory, instant scripted model)",
  async run({ quick }) {
    const rows: string[][] = [];
    for (const stored of quick ? [100] : [100, 1_000]) {
      const store = new InMemoryStore();
      const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
      const agent = new Agent({ model, memoryStore: store, sessionId: "bench" });
      const history = Array.from({ length: stored }, (_, index) => ({
        id: `m${index}`,
        role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
        content: `message number ${index} with a little text in it`,
        timestamp: index,
      }));
      await store.setMessages("bench", history);
      const sample = await measure(() => agent.run("next"), { runs: quick ? 5 : 50 });
      rows.push([String(stored), formatSample(sample)]); // each run adds 2 messages to the session
    }
    return table(["stored messages", "agent.run per turn, median (p10–p90)"], rows);
  },
};
