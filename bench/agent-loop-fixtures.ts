/**
 * The agent-loop bench's conversation, model, strategies and stores, shared by
 * bench/agent-loop.bench.ts (the sources, through the `agentcore` path alias) and
 * bench/compare-builds.ts (two built packages side by side in one process). agentcore's classes
 * come in as a `BenchLibrary`, so one copy of this code drives any build; only types are imported.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type * as Root from "agentcore";
import type {
  AgentMessage,
  IMemoryStrategy,
  LanguageModel,
  LanguageModelCall,
  LanguageModelResult,
  LanguageModelStreamPart,
  MemoryStore,
} from "agentcore";
import type * as Postgres from "agentcore/postgres";
import type * as Redis from "agentcore/redis";
import type * as Sqlite from "agentcore/sqlite";
import { connectPostgres, connectRedis } from "./harness";

/** The agentcore classes the agent loop bench uses, from the sources or from a build's dist. */
export interface BenchLibrary {
  root: Pick<
    typeof Root,
    | "Agent"
    | "InMemoryStore"
    | "FileMemoryStore"
    | "SlidingWindowMemory"
    | "TokenWindowMemory"
    | "BufferMemory"
    | "SummaryMemory"
    | "FullMemory"
  >;
  redis: Pick<typeof Redis, "RedisMemoryStore">;
  postgres: Pick<typeof Postgres, "PostgresMemoryStore">;
  sqlite: Pick<typeof Sqlite, "SqliteMemoryStore">;
}

export const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
export const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const SEED_CHUNK = 1_000;
export const ANSWER = "ok";
export const SUMMARY =
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
export const userText = (turn: number) => `(${turn}) ${pick(userSentences, turn, 2 + (turn % 3))}`;
export const assistantText = (turn: number) => `${pick(assistantSentences, turn, 3 + (turn % 4))} (${turn})`;

/** Every 10th turn calls a tool: user, assistant with a tool call, the tool result, the answer. */
export function turnMessages(turn: number): AgentMessage[] {
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
export async function seed(store: MemoryStore, sessionId: string, size: number): Promise<void> {
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
export class InstantModel implements LanguageModel {
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

export interface StrategyUnderTest {
  name: string;
  /** How it is configured, for the notes. */
  configuration: string;
  create(summariser: LanguageModel, classes: BenchLibrary["root"]): IMemoryStrategy;
  /** Windowed: the model sees a bounded window (at most this many messages); otherwise it sees the whole session. */
  windowed: boolean;
  maxWindow?: number;
  /** Run one untimed turn first (the summary strategy writes its first summary there). */
  primed?: boolean;
}

/** Fewest messages a windowed strategy sends here; fewer would mean the bench measures an empty window. */
export const MIN_WINDOW = 10;

export const strategies: StrategyUnderTest[] = [
  {
    name: "sliding_window",
    configuration: "`new SlidingWindowMemory({ maxTurns: 10 })` (about the last 20 messages)",
    windowed: true,
    maxWindow: 41,
    create: (_, { SlidingWindowMemory }) => new SlidingWindowMemory({ maxTurns: 10 }),
  },
  {
    name: "token_window",
    configuration: "`new TokenWindowMemory({ maxTokens: 4000 })`",
    windowed: true,
    maxWindow: 200,
    create: (_, { TokenWindowMemory }) => new TokenWindowMemory({ maxTokens: 4_000 }),
  },
  {
    name: "buffer",
    configuration: "`new BufferMemory({ maxMessages: 20 })`",
    windowed: true,
    maxWindow: 21,
    create: (_, { BufferMemory }) => new BufferMemory({ maxMessages: 20 }),
  },
  {
    name: "summary",
    configuration:
      "`new SummaryMemory({ summarizeThreshold: 40, recentMessages: 20, maxTokens: 4000, model })` with an instant summariser; the first summary of the seeded history is written in an untimed turn, so the timed turns reuse it and extend it every ten turns or so, as a long-lived session does",
    windowed: true,
    maxWindow: 60,
    primed: true,
    // maxDigestLength: the first summary covers the whole seed in one call instead of catching up over hundreds of turns.
    create: (summariser, { SummaryMemory }) =>
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
    create: (_, { FullMemory }) => new FullMemory(),
  },
];

// ---------------------------------------------------------------- stores

/** A session to measure on, and what to do after it (untimed). */
export interface BenchSession {
  store: MemoryStore;
  done(): Promise<void>;
}

export interface OpenedStore {
  /** A fresh session's store: a new store (and file) for the embedded stores, the shared one for servers. */
  session(sessionId: string): Promise<BenchSession>;
  close(): Promise<void>;
}

export interface StoreUnderTest {
  name: string;
  /** Opens the store of `library` (files under `directory`), or says why it is skipped (a server that is not reachable). */
  open(directory: string, library: BenchLibrary): Promise<OpenedStore | string>;
}

export const random = () => Math.random().toString(36).slice(2, 8);

export const stores: StoreUnderTest[] = [
  {
    name: "InMemoryStore",
    open: async (_, { root: { InMemoryStore } }) => ({
      session: async () => ({ store: new InMemoryStore(), done: async () => {} }),
      close: async () => {},
    }),
  },
  {
    name: "FileMemoryStore",
    open: async (directory, { root: { FileMemoryStore } }) => ({
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
    open: async (directory, { sqlite: { SqliteMemoryStore } }) => ({
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
    async open(_, { redis: { RedisMemoryStore } }) {
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
    async open(_, { postgres: { PostgresMemoryStore } }) {
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

// ---------------------------------------------------------------- one session's turns

/** A seeded session and its agent, ready for timed turns. */
export interface LoopSession {
  /** One turn (one `agent.run()`), then checks what the model saw against the strategy's window. */
  turn(): Promise<void>;
  /** After the timed turns: throws when a primed strategy's last turn was sent without its summary. */
  check(): void;
}

/**
 * Seeds `sessionId` with `size` messages and builds `library`'s agent over it with `strategy`; a
 * primed strategy's first turn (its first summary) runs here, untimed. `label` names the cell in errors.
 */
export async function openLoopSession(
  library: BenchLibrary,
  store: MemoryStore,
  sessionId: string,
  strategy: StrategyUnderTest,
  size: number,
  label: string,
): Promise<LoopSession> {
  await seed(store, sessionId, size);
  const model = new InstantModel(ANSWER);
  const summariser = new InstantModel(SUMMARY);
  const agent = new library.root.Agent({
    model,
    memory: strategy.create(summariser, library.root),
    memoryStore: store,
    sessionId,
  });
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
  return {
    turn,
    check() {
      if (strategy.primed && !model.lastCall!.system?.includes(SUMMARY.slice(0, 40)))
        throw new Error(`${label}: the last turn was sent without the summary`);
    },
  };
}
