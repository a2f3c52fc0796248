/**
 * The agent loop with `recordContext` off and on, side by side: what recording a context report
 * per model call adds to a turn, on every store. Same turn as bench/agent-loop.bench.ts (an
 * instant scripted model, a session seeded with 1,000 messages), with `token_window` (drops by
 * budget) and `summary` (a summary covering most of the session); the two settings alternate in
 * rounds on the same session so drift on the shared machine hits both alike.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  FileMemoryStore,
  InMemoryStore,
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
  summarise,
  table,
  type Benchmark,
  type Sample,
} from "./harness";

const SIZE = 1_000;
const SUMMARY = "The user is moving services to a new region; decisions: logical replication, a two-week canary.";
const sentence = "The replication lag you measured is within the expected range for cross-region traffic.";

class InstantModel implements LanguageModel {
  readonly provider = "bench";
  readonly modelId = "gpt-4o-mini";
  constructor(private readonly text: string) {}
  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const inputTokens = Math.ceil(((call.system?.length ?? 0) + call.messages.length * 100) / 4);
    return {
      text: this.text,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens, outputTokens: 1, totalTokens: inputTokens + 1 },
    };
  }
  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const result = await this.doGenerate(call);
    yield { type: "text-delta", delta: result.text };
    yield { type: "finish", finishReason: result.finishReason, usage: result.usage };
  }
}

async function seed(store: MemoryStore, sessionId: string): Promise<void> {
  const messages: AgentMessage[] = [];
  for (let index = 0; index < SIZE; index++)
    messages.push({
      id: `m${index}`,
      role: index % 2 ? "assistant" : "user",
      content: `(${index}) ${sentence}`,
      timestamp: index,
    });
  await store.appendMessages!(sessionId, messages);
}

const strategies: Record<string, () => IMemoryStrategy> = {
  token_window: () => new TokenWindowMemory({ maxTokens: 4_000 }),
  summary: () =>
    new SummaryMemory({
      summarizeThreshold: 40,
      recentMessages: 20,
      maxTokens: 4_000,
      model: new InstantModel(SUMMARY),
      maxDigestLength: Number.MAX_SAFE_INTEGER,
    }),
};

interface Opened {
  store: MemoryStore;
  close(): Promise<void>;
}

const random = () => Math.random().toString(36).slice(2, 8);

async function openStores(directory: string): Promise<Array<[string, Opened | string]>> {
  const sqlite = new SqliteMemoryStore({ database: join(directory, "sessions.db") });
  const redis = await connectRedis(process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379");
  const pool = await connectPostgres(process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  const schema = `bench_context_${random()}`;
  const postgres = typeof pool === "string" ? pool : new PostgresMemoryStore({ pool, schema });
  const prefix = `agentcore-bench-context-${random()}:`;
  return [
    ["InMemoryStore", { store: new InMemoryStore(), close: async () => {} }],
    ["FileMemoryStore", { store: new FileMemoryStore(join(directory, "sessions.json")), close: async () => {} }],
    ["SqliteMemoryStore", { store: sqlite, close: async () => sqlite.close() }],
    [
      "RedisMemoryStore",
      typeof redis === "string"
        ? redis
        : {
            store: new RedisMemoryStore({ client: redis, prefix }),
            async close() {
              let cursor = "0";
              do {
                const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1_000);
                if (keys.length > 0) await redis.del(...keys);
                cursor = next;
              } while (cursor !== "0");
              await redis.quit();
            },
          },
    ],
    [
      "PostgresMemoryStore",
      typeof postgres === "string" || typeof pool === "string"
        ? String(postgres)
        : {
            store: postgres,
            async close() {
              await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
              await pool.end();
            },
          },
    ],
  ];
}

/** Off and on, alternating in rounds of `perRound` turns on one session each. */
async function cell(
  store: MemoryStore,
  strategy: string,
  rounds: number,
  perRound: number,
): Promise<[Sample, Sample, Sample, Sample]> {
  const agents = await Promise.all(
    [false, true].map(async (recordContext) => {
      const sessionId = `bench-context-${strategy}-${recordContext}-${random()}`;
      await seed(store, sessionId);
      const agent = new Agent({
        model: new InstantModel("ok"),
        memory: strategies[strategy]!(),
        memoryStore: store,
        sessionId,
        recordContext,
      });
      await agent.run("warm up: the first summary, compiling the code paths"); // untimed
      return { agent, sessionId, times: [] as number[], cpu: [] as number[] };
    }),
  );
  for (let round = 0; round < rounds; round++) {
    for (const entry of agents) {
      collectGarbage();
      for (let turn = 0; turn < perRound; turn++) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        await entry.agent.run(`question ${round}.${turn}: ${sentence}`);
        entry.times.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        entry.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  const reports = await store.getContextReports!(agents[1]!.sessionId);
  if (reports.length === 0) throw new Error(`${strategy}: recordContext: true recorded no report`);
  if ((await store.getContextReports!(agents[0]!.sessionId)).length !== 0)
    throw new Error(`${strategy}: recordContext off recorded a report`);
  for (const entry of agents) await store.clearMessages(entry.sessionId);
  return [
    summarise(agents[0]!.times),
    summarise(agents[1]!.times),
    summarise(agents[0]!.cpu),
    summarise(agents[1]!.cpu),
  ];
}

export const benchmark: Benchmark = {
  title: "The agent loop with recordContext off and on",
  async run({ quick }) {
    const rounds = quick ? 1 : 6;
    const perRound = quick ? 3 : 10;
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-context-"));
    const rows: string[][] = [];
    const notes: string[] = [];
    const loadBefore = loadavg()[0]!;
    try {
      for (const [name, opened] of await openStores(directory)) {
        if (typeof opened === "string") {
          notes.push(`${name} ${opened}`);
          continue;
        }
        try {
          for (const strategy of Object.keys(strategies)) {
            const [off, on, cpuOff, cpuOn] = await cell(opened.store, strategy, rounds, perRound);
            const added = (a: Sample, b: Sample) =>
              `${b.median - a.median >= 0 ? "+" : ""}${((b.median - a.median) * 1000).toFixed(0)} µs`;
            rows.push([
              name,
              `\`${strategy}\``,
              formatSample(off),
              formatSample(on),
              added(off, on),
              `${formatMs(cpuOff.median)} → ${formatMs(cpuOn.median)} (${added(cpuOff, cpuOn)})`,
            ]);
            if (!quick)
              console.error(
                `bench: agent-loop-context ${name} × ${strategy}: off ${formatSample(off)}, on ${formatSample(on)}`,
              );
          }
        } finally {
          await opened.close();
        }
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    return [
      `One turn as in the agent-loop benchmark above (an instant scripted model, a session seeded with ${SIZE.toLocaleString("en-US")} messages), with \`recordContext: false\` (the default) and \`recordContext: true\`, which builds a context report from the step's window (ids of the window and of what was left out, with reasons, the tokens of each part) and keeps it with \`saveContextReport\` (one more store write per model call; the file store's rides on the turn's fsync). Strategies: \`token_window\` (\`maxTokens: 4000\`) and \`summary\` (\`summarizeThreshold: 40, recentMessages: 20, maxTokens: 4000\`, an instant summariser). The two settings run on sessions of their own, alternating in ${rounds} rounds of ${perRound} turns after one untimed turn each; median (p10–p90) of the ${rounds * perRound} turns. The last column is the CPU time this process spent per turn (\`process.cpuUsage\`; the database servers' own work is not in it), which other processes on the machine disturb less than the wall-clock time. With it off, the run loop does only a boolean check more than before.`,
      "",
      `Load average (1 min) when the run started: ${loadBefore.toFixed(1)}, when it ended: ${loadavg()[0]!.toFixed(1)}; above the number of cores, other processes compete for the CPU and every figure, off and on alike, grows with it: compare within a row.`,
      "",
      table(
        [
          "store",
          "strategy",
          "recordContext off",
          "recordContext on",
          "added per turn (median)",
          "CPU of this process per turn, off → on (median)",
        ],
        rows,
      ),
      ...(notes.length ? ["", ...notes] : []),
    ].join("\n");
  },
};
