/**
 * A regenerate (`agent.run({ sessionId, regenerate: true })`) on a long session, by stored size and
 * store, beside the same regenerate reading the whole history (what every regenerate did before it
 * read a tail, up to commit 196f8c4). Both run in this process on the same store, each on its own
 * copy of the session, interleaved regenerate by regenerate.
 *
 * "Whole history" is the same store seen without its native tail read (`getMessageTail` and the
 * folded lock-and-tail hidden by a proxy): the agent then takes the lock, reads the whole history
 * and cuts it, as the earlier code did for every regenerate; the write (the old answer replaced by
 * the new, one statement) is the same in both.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import BetterSqlite3 from "better-sqlite3";
import { Agent, InMemoryStore, type AgentMessage, type MemoryStore } from "agentcore";
import { SqliteMemoryStore } from "agentcore/sqlite";
import { collectGarbage, formatSample, machineLine, summarise, table, type Benchmark, type Sample } from "./harness";
import { serverStoreCandidates } from "./store-candidates";
import { InstantModel } from "./agent-loop-fixtures";

interface Candidate {
  name: string;
  open(): Promise<{ store: MemoryStore; close(): Promise<void> } | string>;
}

const candidates = (directory: string): Candidate[] => [
  { name: "InMemoryStore", open: async () => ({ store: new InMemoryStore(), close: async () => {} }) },
  {
    name: "SqliteMemoryStore",
    open: async () => {
      const store = new SqliteMemoryStore({
        database: new BetterSqlite3(join(directory, `regenerate-${Math.random()}.db`)),
      });
      return { store, close: async () => void store.database.close() };
    },
  },
  ...serverStoreCandidates,
];

/**
 * The store without its native tail read, served as a user's store would be (the fallback backend:
 * its built-in backend, under `Symbol.for("agentcore.storeBackend")`, hidden): whole histories are
 * read (the regenerate before this change), and the cut is its `deleteMessagesFrom` then its append.
 */
function wholeHistoryView(store: MemoryStore): MemoryStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === "getMessageTail" || property === Symbol.for("agentcore.storeBackend")) return undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, property) {
      if (property === "getMessageTail" || property === Symbol.for("agentcore.storeBackend")) return false;
      return Reflect.has(target, property);
    },
  });
}

async function seed(store: MemoryStore, sessionId: string, stored: number): Promise<void> {
  for (let start = 0; start < stored; start += 1_000) {
    const batch: AgentMessage[] = Array.from({ length: Math.min(1_000, stored - start) }, (_, offset) => {
      const index = start + offset;
      return {
        id: `${sessionId}-m${index}`,
        role: index % 2 === 0 ? "user" : "assistant",
        content: `message number ${index}: a sentence or two of ordinary chat text, about the length of a real turn.`,
        timestamp: 1_700_000_000_000 + index,
      };
    });
    await store.appendMessages!(sessionId, batch);
  }
}

/** Interleaved: each round runs every variant once; medians per variant. */
async function sideBySide(
  variants: (() => Promise<unknown>)[],
  options: { runs: number; warmup: number; budgetMs: number },
): Promise<Sample[]> {
  for (let index = 0; index < options.warmup; index++) for (const variant of variants) await variant();
  collectGarbage();
  const times: number[][] = variants.map(() => []);
  const started = performance.now();
  while (times[0]!.length < options.runs && (times[0]!.length < 5 || performance.now() - started < options.budgetMs)) {
    for (const [index, variant] of variants.entries()) {
      const start = performance.now();
      await variant();
      times[index]!.push(performance.now() - start);
    }
  }
  return times.map(summarise);
}

export const benchmark: Benchmark = {
  title: "Regenerate on a long session: the tail, not the whole history",
  async run({ quick }) {
    const sizes = quick ? [1_000] : [1_000, 10_000, 100_000];
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-regenerate-"));
    const rows: string[][] = [];
    const skipped: string[] = [];
    const loadStart = loadavg()[0]!;
    try {
      for (const candidate of candidates(directory)) {
        for (const size of sizes) {
          const opened = await candidate.open();
          if (typeof opened === "string") {
            if (size === sizes[0]) skipped.push(`${candidate.name}: ${opened}`);
            continue;
          }
          try {
            const { store } = opened;
            await seed(store, "tail", size);
            await seed(store, "whole", size);
            const agent = (memoryStore: MemoryStore, sessionId: string) =>
              new Agent({ model: new InstantModel("ok"), memory: "sliding_window", memoryStore, sessionId });
            const tail = agent(store, "tail");
            const whole = agent(wholeHistoryView(store), "whole");
            const regenerate = (on: Agent) => () => on.run({ regenerate: true });
            const scale = size >= 100_000 ? 1 : size >= 10_000 ? 2 : 4;
            const [wholeSample, tailSample] = await sideBySide([regenerate(whole), regenerate(tail)], {
              runs: quick ? 3 : 15 * scale,
              warmup: quick ? 1 : 2,
              budgetMs: quick ? 1_000 : 20_000,
            });
            const stored = (await store.getMessages("tail")).length;
            if (stored !== size)
              throw new Error(`${candidate.name}: the session holds ${stored} messages, not ${size}`);
            rows.push([
              candidate.name,
              size.toLocaleString("en-US"),
              formatSample(wholeSample!),
              formatSample(tailSample!),
              `${(wholeSample!.median / tailSample!.median).toFixed(1)}×`,
              String(tailSample!.runs),
            ]);
          } finally {
            // The candidates' close removes their schema, or their session "bench": these sessions go first.
            for (const sessionId of ["tail", "whole"]) await opened.store.clearMessages(sessionId);
            await opened.close();
          }
        }
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    return [
      "One regenerate, `agent.run({ sessionId, regenerate: true })` (the last answer replaced), with `memory: \"sliding_window\"` (20 turns) and a model that answers at once, on a session of N stored messages. *Whole history*: the regenerate as it was up to commit 196f8c4 (the lock, the whole history read and parsed, cut at the last user message), reproduced by the same store with its tail read hidden; *tail*: now (the lock and the strategy's tail, 76 messages, read in one round trip where the store folds them; the cut found in it). The write is the same in both: the old answer replaced in one statement (on `InMemoryStore` in both columns its cut in place, which came with this change; before it, the cut also copied the session's array). Both variants on the same store, each on its own session, interleaved regenerate by regenerate after warm-up. Median (p10–p90) per regenerate.",
      "",
      table(["store", "N", "whole history (before)", "tail (now)", "speed-up", "runs"], rows),
      "",
      ...(skipped.length > 0 ? [`Skipped: ${skipped.join("; ")}.`, ""] : []),
      `${machineLine()} Load average (1 min) at the start of this section: ${loadStart.toFixed(1)}; at the end: ${loadavg()[0]!.toFixed(1)} (a shared 2-core machine: absolute times move with it, the ratios measured side by side are what count).`,
    ].join("\n");
  },
};
