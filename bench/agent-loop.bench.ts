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
  type IMemoryStrategy,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
  type MemoryStore,
} from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import { SqliteMemoryStore } from "agentcore/sqlite";
import {
  collectGarbage,
  connectPostgres,
  connectRedis,
  formatMs,
  formatSample,
  measure,
  table,
  type Benchmark,
  type Sample,
} from "./harness";

const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The issue's targets: in-memory under 1 ms per turn at 10k, and 100k within 2× of 100 for windowed strategies. */
const TARGET_MS = 1;
const TARGET_RATIO = 2;
const SEED_CHUNK = 1_000;
const ANSWER = "ok";
const SUMMARY =
  "The user is planning a move of their team's services to a new cloud region and asked about database replication, " +
  "cost estimates and a rollout plan. Decisions so far: PostgreSQL with logical replication, a two-week canary, " +
  "weekly cost reviews. Open: the DNS cut-over date and who signs off on the budget.";

// ---------------------------------------------------------------- the conversation

const userSentences = [
  "Could you look at the deployment plan again before Friday?",
  "I am not sure the replication lag numbers are right.",
  "What would it cost if we doubled the read replicas?",
  "Please keep the answer short, I am reading this on my phone.",
  "The team prefers TypeScript for the migration scripts.",
  "Last week the canary failed twice because of a timeout.",
  "Can you compare that with what we discussed on Monday?",
  "My manager wants a one-page summary for the budget meeting.",
];
const assistantSentences = [
  "Here is what I would change in the plan, step by step.",
  "The replication lag you measured is within the expected range for cross-region traffic, usually between 80 and 200 ms.",
  "Doubling the read replicas roughly doubles that line item, but the egress cost stays the same because reads stay in region.",
  "For the migration scripts, TypeScript with a small CLI wrapper keeps them testable and easy to review.",
  "The canary failures look like the connection pool running out during the warm-up, not a problem with the new region itself.",
  "I would raise the pool size for the first hour and add an alert on queue depth.",
  "Compared with Monday's version, this keeps the two-week canary and moves the DNS cut-over to the end.",
  "If you want, I can turn this into a one-page summary with the cost table at the top.",
];

const pick = (pool: string[], seed: number, count: number) =>
  Array.from({ length: count }, (_, index) => pool[(seed * 7 + index * 3) % pool.length]!).join(" ");
const userText = (turn: number) => `(${turn}) ${pick(userSentences, turn, 2 + (turn % 3))}`;
const assistantText = (turn: number) => `${pick(assistantSentences, turn, 3 + (turn % 4))} (${turn})`;

/** Every 10th turn calls a tool: user, assistant with a tool call, the tool result, the answer. */
function turnMessages(turn: number): AgentMessage[] {
  const at = 1_700_000_000_000 + turn * 60_000;
  const user: AgentMessage = { id: `u${turn}`, role: "user", content: userText(turn), timestamp: at };
  if (turn % 10 !== 5)
    return [user, { id: `a${turn}`, role: "assistant", content: assistantText(turn), timestamp: at + 1 }];
  const callId = `call_${turn}`;
  return [
    user,
    {
      id: `c${turn}`,
      role: "assistant",
      content: "",
      toolCalls: [{ id: callId, name: "search_docs", arguments: { query: `replication lag ${turn}`, limit: 3 } }],
      timestamp: at + 1,
    },
    {
      id: `r${turn}`,
      role: "tool",
      toolCallId: callId,
      name: "search_docs",
      content: JSON.stringify({ results: assistantSentences.slice(0, 3), turn }),
      timestamp: at + 2,
    },
    { id: `a${turn}`, role: "assistant", content: assistantText(turn), timestamp: at + 3 },
  ];
}

/** Exactly `size` messages (an even number) of whole turns, in appends of 1,000 (a chunk may end inside a turn, as a log does). */
async function seed(store: MemoryStore, sessionId: string, size: number): Promise<void> {
  let chunk: AgentMessage[] = [];
  let count = 0;
  for (let turn = 0; count < size; turn++) {
    let messages = turnMessages(turn);
    // Near the end, a tool turn that would not fit becomes a plain one, so the seed ends on a whole turn.
    if (count + messages.length > size)
      messages = [
        messages[0]!,
        { id: `a${turn}`, role: "assistant", content: assistantText(turn), timestamp: messages[0]!.timestamp! + 1 },
      ];
    for (const message of messages) {
      chunk.push(message);
      count++;
      if (chunk.length === SEED_CHUNK) {
        await store.appendMessages!(sessionId, chunk);
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) await store.appendMessages!(sessionId, chunk);
}

// ---------------------------------------------------------------- the model

/**
 * Answers at once with a fixed text and reports plausible usage (about 4 characters a token), as
 * a provider does, so the agent's token calibration runs too. Unlike `MockLanguageModel` it copies
 * nothing and records only the last call.
 */
class InstantModel implements LanguageModel {
  readonly provider = "bench";
  readonly modelId = "gpt-4o-mini";
  calls = 0;
  lastCall: LanguageModelCall | undefined;

  constructor(private readonly text: string) {}

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    this.calls++;
    this.lastCall = call;
    let characters = call.system?.length ?? 0;
    for (const message of call.messages) characters += message.content.length + 16;
    const inputTokens = Math.ceil(characters / 4);
    const outputTokens = Math.ceil(this.text.length / 4);
    return {
      text: this.text,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    };
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const result = await this.doGenerate(call);
    yield { type: "text-delta", delta: result.text };
    yield { type: "finish", finishReason: result.finishReason, usage: result.usage };
  }
}

// ---------------------------------------------------------------- strategies

interface StrategyUnderTest {
  name: string;
  /** How it is configured, for the notes. */
  configuration: string;
  create(summariser: LanguageModel): IMemoryStrategy;
  /** Windowed: the model sees a bounded window (at most this many messages); otherwise it sees the whole session. */
  windowed: boolean;
  maxWindow?: number;
  /** Run one untimed turn first (the summary strategy writes its first summary there). */
  primed?: boolean;
}

/** Fewest messages a windowed strategy sends here; fewer would mean the bench measures an empty window. */
const MIN_WINDOW = 10;

const strategies: StrategyUnderTest[] = [
  {
    name: "sliding_window",
    configuration: "`new SlidingWindowMemory({ maxTurns: 10 })` (about the last 20 messages)",
    windowed: true,
    maxWindow: 41,
    create: () => new SlidingWindowMemory({ maxTurns: 10 }),
  },
  {
    name: "token_window",
    configuration: "`new TokenWindowMemory({ maxTokens: 4000 })`",
    windowed: true,
    maxWindow: 200,
    create: () => new TokenWindowMemory({ maxTokens: 4_000 }),
  },
  {
    name: "buffer",
    configuration: "`new BufferMemory({ maxMessages: 20 })`",
    windowed: true,
    maxWindow: 21,
    create: () => new BufferMemory({ maxMessages: 20 }),
  },
  {
    name: "summary",
    configuration:
      "`new SummaryMemory({ summarizeThreshold: 40, recentMessages: 20, maxTokens: 4000, model })` with an instant summariser; the first summary of the seeded history is written in an untimed turn, so the timed turns reuse it and extend it every ten turns or so, as a long-lived session does",
    windowed: true,
    maxWindow: 60,
    primed: true,
    // maxDigestLength: the first summary covers the whole seed in one call instead of catching up over hundreds of turns.
    create: (summariser) =>
      new SummaryMemory({
        summarizeThreshold: 40,
        recentMessages: 20,
        maxTokens: 4_000,
        model: summariser,
        maxDigestLength: Number.MAX_SAFE_INTEGER,
      }),
  },
  {
    name: "full",
    configuration: "`new FullMemory()`: the whole session, O(n) by nature",
    windowed: false,
    create: () => new FullMemory(),
  },
];

// ---------------------------------------------------------------- stores

/** A session to measure on, and what to do after it (untimed). */
interface BenchSession {
  store: MemoryStore;
  done(): Promise<void>;
}

interface OpenedStore {
  /** A fresh session's store: a new store (and file) for the embedded stores, the shared one for servers. */
  session(sessionId: string): Promise<BenchSession>;
  close(): Promise<void>;
}

interface StoreUnderTest {
  name: string;
  /** Opens the store, or says why it is skipped (a server that is not reachable). */
  open(directory: string): Promise<OpenedStore | string>;
}

const random = () => Math.random().toString(36).slice(2, 8);

const stores: StoreUnderTest[] = [
  {
    name: "InMemoryStore",
    open: async () => ({
      session: async () => ({ store: new InMemoryStore(), done: async () => {} }),
      close: async () => {},
    }),
  },
  {
    name: "FileMemoryStore",
    open: async (directory) => ({
      async session() {
        const folder = mkdtempSync(join(directory, "file-"));
        return {
          store: new FileMemoryStore(join(folder, "sessions.json")),
          done: async () => rmSync(folder, { recursive: true, force: true }),
        };
      },
      close: async () => {},
    }),
  },
  {
    name: "SqliteMemoryStore",
    open: async (directory) => ({
      async session() {
        const folder = mkdtempSync(join(directory, "sqlite-"));
        const store = new SqliteMemoryStore({ database: join(folder, "sessions.db") });
        return {
          store,
          done: async () => {
            store.close();
            rmSync(folder, { recursive: true, force: true });
          },
        };
      },
      close: async () => {},
    }),
  },
  {
    name: "RedisMemoryStore",
    async open() {
      const client = await connectRedis(redisUrl);
      if (typeof client === "string") return client;
      const prefix = `agentcore-bench-loop-${process.pid}-${random()}:`;
      const store = new RedisMemoryStore({ client, prefix });
      return {
        session: async (sessionId) => ({ store, done: () => store.clearMessages(sessionId) }),
        async close() {
          // Every key this run wrote carries its prefix (the session index included).
          let cursor = "0";
          do {
            const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1_000);
            if (keys.length > 0) await client.del(...keys);
            cursor = next;
          } while (cursor !== "0");
          await client.quit();
        },
      };
    },
  },
  {
    name: "PostgresMemoryStore",
    async open() {
      const pool = await connectPostgres(postgresUrl);
      if (typeof pool === "string") return pool;
      // A schema of its own, dropped at the end with everything in it (tables, trigger functions).
      const schema = `bench_loop_${random()}`;
      const store = new PostgresMemoryStore({ pool, schema });
      await store.migrate();
      return {
        session: async (sessionId) => ({ store, done: () => store.clearMessages(sessionId) }),
        async close() {
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await pool.end();
        },
      };
    },
  },
];

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
    await seed(store, sessionId, size);
    const model = new InstantModel(ANSWER);
    const summariser = new InstantModel(SUMMARY);
    const agent = new Agent({ model, memory: strategy.create(summariser), memoryStore: store, sessionId });
    const label = `${storeName} × ${strategy.name} × ${size}`;
    let stored = size;
    const turn = async () => {
      const result = await agent.run(`next question after ${stored} messages: ${userText(stored)}`);
      stored += 2;
      if (result.text !== ANSWER) throw new Error(`${label}: unexpected answer ${JSON.stringify(result.text)}`);
      const sent = model.lastCall!.messages.length;
      if (strategy.windowed ? sent < MIN_WINDOW || sent > strategy.maxWindow! : sent !== stored - 1) {
        throw new Error(
          `${label}: the model saw ${sent} messages, expected ${strategy.windowed ? `a window of ${MIN_WINDOW}–${strategy.maxWindow}` : stored - 1}`,
        );
      }
    };
    if (strategy.primed) {
      await turn();
      if (summariser.calls === 0) throw new Error(`${label}: the first summary was not written`);
    }
    collectGarbage();
    const sample = await measure(
      turn,
      quick
        ? { runs: 3, warmup: 1, minRuns: 3, budgetMs: 0 }
        : { runs: size >= 100_000 ? 15 : 30, warmup: 3, minRuns: 5, budgetMs: 4_000 },
    );
    if (strategy.primed && !model.lastCall!.system?.includes(SUMMARY.slice(0, 40)))
      throw new Error(`${label}: the last turn was sent without the summary`);
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
        const opened = await storeUnderTest.open(directory);
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
