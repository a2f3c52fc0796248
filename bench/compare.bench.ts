/**
 * Per-turn memory overhead of agentcore beside the libraries users would pick instead, measured
 * side by side in one run, the model excluded.
 *
 * One turn, in every row: load the session's history, apply a last-20-messages window, persist the
 * new user message and a reply. Every library starts from the same seeded conversation (N stored
 * messages, user and assistant alternating, the same text).
 */
import { performance } from "node:perf_hooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  collectGarbage,
  formatMs,
  formatSample,
  measure,
  summarise,
  table,
  type Benchmark,
  type Sample,
} from "./harness";
import { WINDOW, contenders, type Contender } from "./compare-contenders";

export const benchmark: Benchmark = {
  title: "Per-turn memory overhead: agentcore beside the alternatives",
  async run({ quick }) {
    const sizes = quick ? [100] : [100, 1_000, 10_000, 100_000];
    const runsFor = (size: number) => (quick ? 5 : size >= 10_000 ? 15 : 30);
    const runs = (contender: Contender, size: number) => size <= (contender.maxSize ?? Infinity);
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-compare-"));
    const results = new Map<string, Map<number, Sample>>();
    const rows: string[][] = [];
    try {
      // Untimed: each contender first runs 20 turns on a 100-message session, so the first timed
      // cell does not also pay for compiling its code paths and opening its storage.
      if (!quick) {
        for (const contender of contenders) {
          const { turn, close } = await contender.open(100, directory);
          try {
            for (let index = 0; index < 20; index++) await turn(index);
          } finally {
            await close();
          }
        }
      }
      for (const size of sizes) {
        // Side by side: every contender at this size before the next size.
        for (const contender of contenders) {
          if (!runs(contender, size)) continue;
          const { turn, close } = await contender.open(size, directory);
          try {
            let index = 0;
            collectGarbage();
            // A turn over a second: 5 timed turns after the one warm-up. A turn over 30 s (LangChain's
            // trimMessages at 100,000: minutes a turn) is reported from that one turn, so a full
            // `npm run bench` stays within an hour; the table says which cells are one turn.
            const started = performance.now();
            await turn(index++);
            const first = performance.now() - started;
            const slow = first > 1_000;
            const sample =
              first > 30_000
                ? summarise([first])
                : await measure(() => turn(index++), { runs: slow ? 5 : runsFor(size), warmup: slow || quick ? 0 : 2 });
            if (!results.has(contender.name)) results.set(contender.name, new Map());
            results.get(contender.name)!.set(size, sample);
          } finally {
            await close();
          }
        }
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    const cell = (contender: Contender, size: number) => {
      const sample = results.get(contender.name)!.get(size);
      if (!sample) return "not run";
      return sample.runs === 1 ? `${formatMs(sample.median)} (one turn)` : formatSample(sample);
    };
    for (const contender of contenders) rows.push([contender.name, ...sizes.map((size) => cell(contender, size))]);

    // File-backed alternatives compare with agentcore's FileMemoryStore, SQLite-backed ones with its SqliteMemoryStore.
    const baselineOf = (kind: Contender["kind"]) =>
      contenders.find((contender) => contender.agentcore === "builtin" && contender.kind === kind)!;
    const ratio = (row: Contender, baseline: Contender, size: number) => {
      const sample = results.get(row.name)!.get(size);
      return sample ? `${(sample.median / results.get(baseline.name)!.get(size)!.median).toFixed(2)}×` : "—";
    };
    const ratioRows: string[][] = [];
    for (const contender of contenders) {
      if (contender.agentcore) continue;
      const builtin = baselineOf(contender.kind);
      ratioRows.push([
        contender.name,
        builtin.name.replace(/^agentcore /, ""),
        ...sizes.map((size) => ratio(contender, builtin, size)),
      ]);
    }
    const headers = sizes.map((size) => `${size.toLocaleString("en-US")} stored`);
    return [
      `One turn, the model excluded: load the session's history, apply a last-${WINDOW}-messages window, persist the new user message and a reply. Every row starts from the same seeded conversation of N messages. Median (p10–p90) of ${sizes.map((size) => `${runsFor(size)} turns at ${size.toLocaleString("en-US")}`).join(", ")} (5 when one turn takes over a second; a cell whose first turn takes over 30 s is that one turn, marked *one turn*), after warm-up (each contender also runs 20 untimed turns on a 100-message session before any timed cell); each library's defaults unless the row says otherwise (agentcore's file and SQLite stores fsync every write by default; the *fsync off* and *synchronous normal* rows show them without that). LangGraph is not run at 100,000: its checkpointers copy the whole message list every turn, over a second per turn already at 10,000.`,
      "",
      "- **agentcore**: `agent.run()` on a `MockLanguageModel` that answers at once, `SlidingWindowMemory({ maxTurns: 11, stablePrefix: false })` (the current turn plus 10 earlier user/assistant turns = 20 earlier messages). The built-in window reads only a tail of the session (`getMessageTail`, a few dozen messages, longer only when the window reaches the tail's start), so its cost does not grow with the session. Each turn also parses the history, restores tool pairing, takes the session lock and emits events.",
      "- **Mastra** (`@mastra/memory` 0.15): `memory.rememberMessages({ lastMessages: 20 })` then `memory.saveMessages` of the user message and the reply (as Mastra's Agent does), semantic recall, working memory and title generation off.",
      "- **LangChain** (`@langchain/core` 1.4): `InMemoryChatMessageHistory.getMessages()`, `trimMessages` (last 21 messages, one token per message) over it plus the new message, then `addMessages` of the user message and the reply.",
      "- **LangGraph** (`@langchain/langgraph` 1.7): `graph.invoke({ messages: [human] }, { configurable: { thread_id } })` on a one-node graph whose node applies `trimMessages` (last 21 messages, one token per message) and returns the reply; the checkpointer stores the whole message list per checkpoint.",
      "- **AI SDK guide pattern**: `readFile` + `JSON.parse` of the chat, append, slice the window, `JSON.stringify` + `writeFile` of the whole file (no fsync, no lock), written here with `node:fs`, as in the AI SDK's chatbot persistence guide.",
      "",
      table(["library and storage", ...headers], rows),
      "",
      `Ratios: each alternative's median divided by agentcore's median for the same storage kind in the same run (in-memory vs \`InMemoryStore\`, file vs \`FileMemoryStore\`, SQLite vs \`SqliteMemoryStore\`, default durability). Above 1× means agentcore is faster.`,
      "",
      table(
        ["alternative", "agentcore store", ...sizes.map((size) => `${size.toLocaleString("en-US")} stored`)],
        ratioRows,
      ),
    ].join("\n");
  },
};
