/**
 * Per-turn memory overhead of the agent loop, the model excluded, for every built-in store and
 * strategy, by stored history size.
 *
 * One turn is one `agent.run()` on a scripted model that answers at once: take the session lock,
 * load the history (a tail, for the windowed strategies, from stores that have `getMessageTail`),
 * apply the strategy, count tokens, call the model, persist the user message and the answer.
 * Each (store, strategy, size) cell runs on a fresh session seeded with `size` messages; seeding,
 * the summary strategy's first summary and the cleanup are not timed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  BufferMemory,
  FileMemoryStore,
  FullMemory,
  InMemoryStore,
  SlidingWindowMemory,
  SummaryMemory,
  TokenWindowMemory,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import { SqliteMemoryStore } from "agentcore/sqlite";
import {
  ANSWER,
  assistantText,
  type BenchLibrary,
  InstantModel,
  type OpenedStore,
  openLoopSession,
  random,
  redisUrl,
  SUMMARY,
  type StrategyUnderTest,
  stores,
  strategies,
  turnMessages,
} from "./agent-loop-fixtures";
import {
  collectGarbage,
  connectRedis,
  formatMs,
  formatSample,
  measure,
  table,
  type Benchmark,
  type Sample,
} from "./harness";

/** The sources, through the `agentcore` path alias. */
const library: BenchLibrary = {
  root: {
    Agent,
    InMemoryStore,
    FileMemoryStore,
    SlidingWindowMemory,
    TokenWindowMemory,
    BufferMemory,
    SummaryMemory,
    FullMemory,
  },
  redis: { RedisMemoryStore },
  postgres: { PostgresMemoryStore },
  sqlite: { SqliteMemoryStore },
};

/** The issue's targets: in-memory under 1 ms per turn at 10k, and 100k within 2× of 100 for windowed strategies. */
const TARGET_MS = 1;
const TARGET_RATIO = 2;

// ---------------------------------------------------------------- one cell

async function runCell(
  opened: OpenedStore,
  storeName: string,
  strategy: StrategyUnderTest,
  size: number,
  quick: boolean,
): Promise<{ sample: Sample; tail: boolean }> {
  const sessionId = `bench-loop-${strategy.name}-${size}-${random()}`;
  const { store, done } = await opened.session(sessionId);
  try {
    const session = await openLoopSession(
      library,
      store,
      sessionId,
      strategy,
      size,
      `${storeName} × ${strategy.name} × ${size}`,
    );
    collectGarbage();
    const sample = await measure(
      session.turn,
      quick
        ? { runs: 3, warmup: 1, minRuns: 3, budgetMs: 0 }
        : { runs: size >= 100_000 ? 15 : 30, warmup: 3, minRuns: 5, budgetMs: 4_000 },
    );
    session.check();
    return { sample, tail: typeof store.getMessageTail === "function" };
  } finally {
    await done();
  }
}

// ---------------------------------------------------------------- a long-lived summary session

/**
 * A session summarised turn after turn keeps one summary record per extension (thousands, in a
 * long one). A turn reads the newest few (`getSummaries(id, { last })`); the second row reads
 * every record, as agentcore did before `last` and as a custom store that ignores it does.
 */
async function summaryRecordsSection(quick: boolean): Promise<string[]> {
  const counts = quick ? [0, 100] : [0, 100, 1_000, 5_000];
  const redis = await connectRedis(redisUrl);
  const backends: { name: string; create(): MemoryStore }[] = [
    { name: "InMemoryStore", create: () => new InMemoryStore() },
  ];
  const prefix = `bench-records-${random()}:`;
  if (typeof redis !== "string")
    backends.push({ name: "RedisMemoryStore", create: () => new RedisMemoryStore({ client: redis, prefix }) });
  const rows: string[][] = [];
  try {
    /** One cell: a fresh session holding `records` older summaries, timed with `settings`. */
    const timeCell = async (
      backend: (typeof backends)[number],
      readsAll: boolean,
      records: number,
      settings: Parameters<typeof measure>[1],
    ): Promise<Sample> => {
      const base = backend.create();
      // Reads every record and leaves the newest to the agent, as a store without `last` does.
      const store: MemoryStore = readsAll
        ? new Proxy(base, {
            get(target, property) {
              if (property === "getSummaries") return (id: string) => target.getSummaries!(id);
              const value = Reflect.get(target, property, target) as unknown;
              return typeof value === "function" ? value.bind(target) : value;
            },
          })
        : base;
      const sessionId = `records-${records}-${random()}`;
      const history: AgentMessage[] = [];
      for (let turn = 0; history.length < 200; turn++)
        history.push(...turnMessages(turn).slice(0, 1), {
          id: `a${turn}`,
          role: "assistant",
          content: assistantText(turn),
          timestamp: turn,
        });
      await base.appendMessages!(sessionId, history);
      // Older records end on messages this session no longer holds (as after a rewrite); the newest ends inside the tail.
      for (let index = 0; index < records; index++) {
        await base.saveSummary!(sessionId, {
          id: `old-${index}`,
          content: SUMMARY,
          fromMessageId: "u0",
          toMessageId: `gone-${index}`,
          messageCount: 1,
          model: "bench/summariser",
          createdAt: index,
        });
      }
      await base.saveSummary!(sessionId, {
        id: "newest",
        content: SUMMARY,
        fromMessageId: "u0",
        toMessageId: history[159]!.id!,
        messageCount: 160,
        model: "bench/summariser",
        createdAt: records,
      });
      const model = new InstantModel(ANSWER);
      const agent = new Agent({
        model,
        memory: new SummaryMemory({
          summarizeThreshold: 1_000,
          recentMessages: 20,
          maxTokens: 4_000,
          model: new InstantModel(SUMMARY),
        }),
        memoryStore: store,
        sessionId,
      });
      try {
        collectGarbage();
        const sample = await measure(() => agent.run("and the next step?"), settings);
        if (!model.lastCall!.system?.includes(SUMMARY.slice(0, 40)))
          throw new Error(`${backend.name} × ${records} records: the turn was sent without the summary`);
        return sample;
      } finally {
        await base.clearMessages(sessionId);
      }
    };
    // Untimed: every configuration once, so the first timed cell does not also pay for compiling its code paths.
    if (!quick)
      for (const backend of backends)
        for (const readsAll of [false, true])
          await timeCell(backend, readsAll, 100, { runs: 20, warmup: 5, minRuns: 20, budgetMs: 0 });
    for (const backend of backends) {
      for (const readsAll of [false, true]) {
        const row = [
          backend.name,
          readsAll
            ? "every record (before; a store ignoring `last`)"
            : "the newest 4 (`getSummaries(id, { last: 4 })`)",
        ];
        for (const records of counts) {
          row.push(
            formatSample(
              await timeCell(
                backend,
                readsAll,
                records,
                quick
                  ? { runs: 3, warmup: 1, minRuns: 3, budgetMs: 0 }
                  : { runs: 30, warmup: 5, minRuns: 5, budgetMs: 4_000 },
              ),
            ),
          );
        }
        rows.push(row);
      }
    }
  } finally {
    if (typeof redis !== "string") redis.disconnect();
  }
  return [
    "### A long-lived summary session: summary records read per turn",
    "",
    `A session summarised turn after turn keeps one record per summary (about one every ten turns: thousands in a long one). One \`summary\` turn (as above, no new summary written) on a 200-message session that holds N older records besides the newest, whose end lies in the tail${quick ? "" : "; each configuration first runs 25 untimed turns on a session of 100 records"}. ${typeof redis === "string" ? `RedisMemoryStore ${redis}. ` : ""}Median (p10–p90) of ${quick ? "3" : "30"} turns:`,
    "",
    table(["store", "summaries read", ...counts.map((records) => `${count(records)} older records`)], rows),
  ];
}

// ---------------------------------------------------------------- the run

const count = (size: number) => size.toLocaleString("en-US");

export const benchmark: Benchmark = {
  title: "Per-turn memory overhead by store, strategy and session size (instant scripted model)",
  async run({ quick }) {
    const sizes = quick ? [100, 1_000] : [100, 1_000, 10_000, 100_000];
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-loop-"));
    const results = new Map<string, Map<string, Map<number, Sample>>>();
    const skipped = new Map<string, string>();
    const withoutTail = new Set<string>();
    try {
      for (const storeUnderTest of stores) {
        const opened = await storeUnderTest.open(directory, library);
        if (typeof opened === "string") {
          skipped.set(storeUnderTest.name, opened);
          console.error(`bench: ${storeUnderTest.name} ${opened}`);
          continue;
        }
        const byStrategy = new Map<string, Map<number, Sample>>();
        results.set(storeUnderTest.name, byStrategy);
        try {
          // Untimed: the first cell of a store would otherwise also pay for compiling the code paths and warming the connection.
          if (!quick)
            for (const strategy of strategies) await runCell(opened, storeUnderTest.name, strategy, 100, false);
          for (const strategy of strategies) {
            const bySize = new Map<number, Sample>();
            byStrategy.set(strategy.name, bySize);
            for (const size of sizes) {
              const { sample, tail } = await runCell(opened, storeUnderTest.name, strategy, size, quick);
              if (!tail) withoutTail.add(storeUnderTest.name);
              bySize.set(size, sample);
              if (!quick)
                console.error(
                  `bench: agent-loop ${storeUnderTest.name} × ${strategy.name} × ${count(size)}: ${formatSample(sample)}, ${sample.runs} turns`,
                );
            }
          }
        } finally {
          await opened.close();
        }
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }

    const first = sizes[0]!;
    const last = sizes.at(-1)!;
    const median = (store: string, strategy: string, size: number) =>
      results.get(store)?.get(strategy)?.get(size)?.median;
    const sections: string[] = [
      `One turn = one \`agent.run()\` with a model that answers "${ANSWER}" at once (a minimal \`LanguageModel\` that copies nothing and reports usage, so token calibration runs): take the session lock, load the history, apply the strategy, count tokens, persist the user message and the answer. Each cell is a fresh session seeded with N messages (user and assistant text of a few sentences, a tool call with its result every 10th turn, appended 1,000 at a time); seeding, the summary strategy's first summary and the cleanup are not timed, and each store first runs one untimed 100-message cell per strategy (compiling the code paths, warming connections). Median (p10–p90) of ${quick ? "3 turns after 1 warm-up turn" : "30 turns (15 at 100,000) after 3 warm-up turns, fewer (at least 5) when a cell has spent 4 s"}; each turn adds two messages to the session.`,
      "",
      "Strategies:",
      "",
      ...strategies.map((strategy) => `- \`${strategy.name}\`: ${strategy.configuration}.`),
      "",
      "Stores, defaults unless said: `InMemoryStore`; `FileMemoryStore` (fsync on, a new file per cell in a temp directory, removed after); `SqliteMemoryStore` (WAL, synchronous full, a new file per cell); `RedisMemoryStore` and `PostgresMemoryStore` on local servers (a unique key prefix / schema for the run, each session cleared after its cell, the keys and tables dropped at the end).",
    ];
    for (const store of stores) {
      sections.push("", `### ${store.name}`, "");
      const reason = skipped.get(store.name);
      if (reason) {
        sections.push(reason);
        continue;
      }
      if (withoutTail.has(store.name))
        sections.push(
          "This store has no `getMessageTail` yet: every turn reads the whole session, whatever the strategy.",
          "",
        );
      sections.push(
        table(
          ["strategy", ...sizes.map((size) => `${count(size)} stored`)],
          strategies.map((strategy) => [
            `\`${strategy.name}\``,
            ...sizes.map((size) => formatSample(results.get(store.name)!.get(strategy.name)!.get(size)!)),
          ]),
        ),
      );
    }

    const ratioRows: string[][] = [];
    for (const store of stores) {
      if (skipped.has(store.name)) continue;
      ratioRows.push([
        store.name,
        ...strategies.map((strategy) => {
          const ratio = median(store.name, strategy.name, last)! / median(store.name, strategy.name, first)!;
          const mark = strategy.windowed && !quick ? (ratio <= TARGET_RATIO ? " ✓" : " ✗") : "";
          return `${ratio.toFixed(2)}×${mark}`;
        }),
      ]);
    }
    sections.push(
      "",
      `### Cost at ${count(last)} ÷ cost at ${count(first)}`,
      "",
      quick
        ? "Quick mode: sizes stop at 1,000, so no target is judged."
        : `Median per turn at ${count(last)} stored messages divided by the median at ${count(first)}. Target for the windowed strategies: within ${TARGET_RATIO}× (✓). \`full\` sends the whole session, so its cost grows with it by nature: no ✓ expected.`,
      "",
      table(["store", ...strategies.map((strategy) => `\`${strategy.name}\``)], ratioRows),
    );

    sections.push("", ...(await summaryRecordsSection(quick)));

    const inMemory = median("InMemoryStore", "sliding_window", 10_000);
    sections.push(
      "",
      inMemory === undefined
        ? `Target (in-memory \`sliding_window\` under ${TARGET_MS} ms per turn at 10,000 stored messages): not measured in quick mode.`
        : `Target: in-memory \`sliding_window\` at 10,000 stored messages takes ${formatMs(inMemory)} per turn (median), ${inMemory < TARGET_MS ? "under" : "over"} the ${TARGET_MS} ms target ${inMemory < TARGET_MS ? "✓" : "✗"}.`,
    );
    return sections.join("\n");
  },
};
