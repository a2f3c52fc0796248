/**
 * Production load: K app-server processes share one store and serve M concurrent conversations,
 * each already holding a long history, in a store that holds many sessions; agentcore on Redis,
 * a Redis Cluster and PostgreSQL, beside Mastra's and LangGraph's PostgreSQL storage, in one run.
 *
 * The bench process is the load balancer: each active session is a user who sends the next
 * message as soon as the answer is back, and each of its turns goes to the next worker in turn
 * (so a conversation moves between servers, as behind a round-robin balancer). Workers
 * (bench/load/worker.ts, `child_process.fork`) time each turn; the bench counts turns per second
 * over a fixed window after a warm-up, then reads every active session back and counts messages
 * lost or duplicated.
 */
import { cpus, loadavg } from "node:os";
import { createRequire } from "node:module";
import { servicesRequired } from "../test/helpers/services";
import { startRedisCluster, type LocalRedisCluster } from "../test/helpers/redis-cluster";
import { connectPostgres, connectRedis, formatMs, table, type Benchmark } from "./harness";
import { runCell, WorkerProcess, type CellResult } from "./load/cell";
import { contenders, FILLER_MESSAGES, WINDOW, type Contender } from "./load/contenders";

const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

interface Plan {
  workers: number;
  active: number;
  history: number;
  sizes: number[];
  warmupMs: number;
  measureMs: number;
  poolSize: number;
}

const full: Plan = {
  workers: 4,
  active: 64,
  history: 1_000,
  sizes: [1_000, 100_000],
  warmupMs: 3_000,
  measureMs: 12_000,
  poolSize: 10,
};
const quickPlan: Plan = {
  workers: 2,
  active: 8,
  history: 100,
  sizes: [200],
  warmupMs: 300,
  measureMs: 1_500,
  poolSize: 4,
};

const number = (value: number) => value.toLocaleString("en-US");
const withApplicationName = (url: string, name: string) =>
  `${url}${url.includes("?") ? "&" : "?"}application_name=${name}`;

export const benchmark: Benchmark = {
  title: "Production load: app servers sharing one store, agentcore beside Mastra and LangGraph on PostgreSQL",
  async run({ quick }) {
    // LOAD_BENCH_SIZES=1000 runs only those store sizes (while working on one; the report then lacks the others).
    const sizes = process.env.LOAD_BENCH_SIZES?.split(",").map(Number);
    const plan = { ...(quick ? quickPlan : full), ...(sizes ? { sizes } : {}) };
    const pool = await connectPostgres(postgresUrl);
    const redis = await connectRedis(redisUrl);
    if (typeof pool === "string" || typeof redis === "string") {
      const why = [pool, redis].filter((value) => typeof value === "string").join("; ");
      if (servicesRequired) throw new Error(why);
      if (typeof pool !== "string") await pool.end();
      if (typeof redis !== "string") redis.disconnect();
      return why;
    }
    redis.disconnect();
    const began = Date.now();
    const elapsed = () => `[${((Date.now() - began) / 1000).toFixed(1)} s]`;
    const bundle = await WorkerProcess.bundle();
    const startingWorkers = Promise.all(Array.from({ length: plan.workers }, () => WorkerProcess.start(bundle.entry)));
    const cluster: LocalRedisCluster | undefined = await startRedisCluster();
    console.error(`  ${elapsed()} Redis Cluster ${cluster ? "started" : "not available"}`);
    const workers: WorkerProcess[] = [];
    const results = new Map<string, CellResult>();
    const loads: number[] = [loadavg()[0]!];
    const key = (contender: Contender, size: number) => `${contender.id}@${size}`;
    // LOAD_BENCH_ONLY=id,id runs only those contenders (while working on one; the report then lacks the others), opt-in
    // ones included: agentcore-redis-unfolded and agentcore-redis-cluster-unfolded, the Redis store without its folded turn.
    const only = process.env.LOAD_BENCH_ONLY?.split(",");
    const running = contenders.filter(
      (contender) =>
        (cluster || contender.store !== "Redis Cluster") && (only ? only.includes(contender.id) : !contender.optIn),
    );
    try {
      workers.push(...(await startingWorkers));
      console.error(`  ${elapsed()} ${plan.workers} workers started`);
      for (const size of plan.sizes) {
        // Side by side: every contender at this size before the next size.
        for (const [index, contender] of running.entries()) {
          const result = await runCell({
            contender,
            config: {
              contender: contender.id,
              redisUrl,
              clusterNodes: cluster?.nodes ?? [],
              // Each PostgreSQL cell's connections carry its schema as their application name, so the cell can find its backends and their CPU time.
              postgresUrl:
                contender.store === "PostgreSQL"
                  ? withApplicationName(postgresUrl, `bench_load_${process.pid}_${index}_${size}`)
                  : postgresUrl,
              // A Redis prefix or a PostgreSQL schema of this cell alone (dropped after it).
              namespace:
                contender.store === "PostgreSQL"
                  ? `bench_load_${process.pid}_${index}_${size}`
                  : `bench-load-${process.pid}-${contender.id}-${size}:`,
              history: plan.history,
              poolSize: plan.poolSize,
            },
            sessions: size,
            active: plan.active,
            warmupMs: plan.warmupMs,
            measureMs: plan.measureMs,
            workers,
            pool,
          });
          console.error(
            `  ${elapsed()} ${contender.name} @ ${number(size)}: ${result.turnsPerSecond.toFixed(0)} turns/s, p50 ${formatMs(result.p50)}, p99 ${formatMs(result.p99)}, CPU ${formatMs(result.cpuPerTurnMs)} per turn${result.serverCpuPerTurnMs === undefined ? "" : ` (PostgreSQL ${formatMs(result.serverCpuPerTurnMs)})`}, lost ${result.lost}, duplicated ${result.duplicated}, out of order ${result.outOfOrder}, errors ${result.errors} (seeded in ${result.seedSeconds.toFixed(1)} s)`,
          );
          if (result.stalls.length > 0) {
            const worst = (pick: (stalls: (typeof result.stalls)[number]) => number) =>
              Math.max(...result.stalls.map(pick)).toFixed(1);
            const sum = (pick: (stalls: (typeof result.stalls)[number]) => number) =>
              result.stalls.reduce((total, stalls) => total + pick(stalls), 0);
            console.error(
              `    workers (worst of ${result.stalls.length}): event-loop delay p50 ${worst((stalls) => stalls.loopP50)} ms, p99 ${worst((stalls) => stalls.loopP99)} ms, max ${worst((stalls) => stalls.loopMax)} ms; GC ${sum((stalls) => stalls.gcMs).toFixed(0)} ms in ${sum((stalls) => stalls.gcCount)} pauses (longest ${worst((stalls) => stalls.gcMaxMs)} ms), of which full ${sum((stalls) => stalls.majorMs).toFixed(0)} ms in ${sum((stalls) => stalls.majorCount)} (longest ${worst((stalls) => stalls.majorMaxMs)} ms); ${sum((stalls) => stalls.involuntarySwitches)} involuntary context switches`,
            );
          }
          if (result.firstError)
            console.error(`    first error: ${result.firstError.split("\n").slice(0, 3).join(" | ")}`);
          results.set(key(contender, size), result);
          loads.push(loadavg()[0]!);
        }
      }
    } finally {
      for (const worker of await startingWorkers.catch(() => [])) worker.stop();
      bundle.remove();
      await cluster?.stop();
      await pool.end();
    }
    const bad = [...results.values()].filter(
      (result) => result.lost + result.duplicated + result.outOfOrder + result.errors > 0,
    );
    if (quick && bad.length > 0) throw new Error(`load bench: ${bad.length} cell(s) lost, duplicated or failed turns`);
    return report(plan, running, results, key, Boolean(cluster), loads);
  },
};

function report(
  plan: Plan,
  running: Contender[],
  results: Map<string, CellResult>,
  key: (contender: Contender, size: number) => string,
  clusterRan: boolean,
  loads: number[],
): string {
  const cell = (contender: Contender, size: number) => results.get(key(contender, size))!;
  const rows = plan.sizes.flatMap((size) =>
    running.map((contender) => {
      const result = cell(contender, size);
      return [
        number(size),
        contender.name,
        result.turnsPerSecond < 10 ? result.turnsPerSecond.toFixed(1) : result.turnsPerSecond.toFixed(0),
        result.measured === 0 ? "—" : formatMs(result.p50),
        result.measured === 0 ? "—" : formatMs(result.p99),
        result.measured === 0 ? "—" : `${(result.p99 / result.p50).toFixed(1)}×`,
        formatMs(result.cpuPerTurnMs),
        result.serverCpuPerTurnMs === undefined ? "—" : formatMs(result.serverCpuPerTurnMs),
        `${result.lost} / ${result.duplicated}`,
        String(result.outOfOrder),
        String(result.errors),
      ];
    }),
  );
  const agentcorePostgres = running.find((contender) => contender.id === "agentcore-postgres")!;
  const alternatives = running.filter(
    (contender) => contender.id === "mastra-postgres" || contender.id === "langgraph-postgres",
  );
  const ratioRows = plan.sizes.map((size) => {
    const best = alternatives.reduce((a, b) => (cell(a, size).turnsPerSecond >= cell(b, size).turnsPerSecond ? a : b));
    const ours = cell(agentcorePostgres, size);
    return [
      number(size),
      ...alternatives.map(
        (alternative) =>
          `${(ours.turnsPerSecond / cell(alternative, size).turnsPerSecond).toFixed(1)}× (CPU ${(cell(alternative, size).cpuPerTurnMs / ours.cpuPerTurnMs).toFixed(1)}×)`,
      ),
      `${(ours.turnsPerSecond / cell(best, size).turnsPerSecond).toFixed(1)}× (${best.name})`,
      ...running
        .filter((contender) => contender.store !== "PostgreSQL")
        .map((contender) => `${(cell(contender, size).turnsPerSecond / cell(best, size).turnsPerSecond).toFixed(1)}×`),
    ];
  });
  const first = plan.sizes[0]!;
  const last = plan.sizes.at(-1)!;
  const scaleRows =
    plan.sizes.length < 2
      ? []
      : running.map((contender) => [
          contender.name,
          `${(cell(contender, last).p50 / cell(contender, first).p50).toFixed(2)}×`,
          `${(cell(contender, first).turnsPerSecond / cell(contender, last).turnsPerSecond).toFixed(2)}×`,
          `${(cell(contender, last).cpuPerTurnMs / cell(contender, first).cpuPerTurnMs).toFixed(2)}×`,
        ]);
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return [
    `K = ${plan.workers} worker processes (app servers, \`child_process.fork\`) share one store and serve M = ${plan.active} concurrent sessions; each active session starts with ${number(plan.history)} stored messages, and the store holds ${plan.sizes.map(number).join(" or ")} sessions in all: the ${plan.active} active ones plus filler sessions of ${FILLER_MESSAGES} short messages each (2 user/assistant turns), written straight to the store before the cell (agentcore on Redis: \`appendMessages\`, 64 at a time; on PostgreSQL, and for Mastra and LangGraph, one session of each kind written through the library's own API, then copied row by row in SQL under new ids). The bench process is a round-robin load balancer: each session sends its next turn when the last one is answered, each turn to the next worker, so every conversation moves between servers. Timed, per cell: every session's first turn untimed, then ${plan.warmupMs / 1000} s of warm-up, then ${plan.measureMs / 1000} s in which every turn that ends counts, with the turns still running at its end (the window stretches until the last one ends: a row whose turns outlast ${plan.measureMs / 1000} s is still measured); latency is one turn inside the worker (${plan.workers} processes on ${cpus().length} cores: the figures include waiting for the CPU); *app-server CPU per turn* is the CPU time (user + system) the worker processes spent, divided by the turns they ran (the store's own CPU not included); *PostgreSQL CPU per turn* is the CPU time of the server processes serving the cell's connections (found by their application name, read from \`/proc\` just before the workers close them), divided by the same turns (PostgreSQL's background writers not included). The machine's 1-minute load average, sampled between cells, was ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${cpus().length} cores (other work shared it): latencies and throughput move with it, CPU per turn much less. After each cell every active session is read back: it must hold its seed followed by each acknowledged turn (user message, answer) once, in order. Machine: ${cpus().length} × ${cpu} shared with other work, Redis ${"7"} and PostgreSQL 15 on the same machine (loopback), ${clusterRan ? "the Redis Cluster started by the bench with `scripts/redis-cluster.sh` (3 masters, 3 replicas, loopback)" : "**no Redis Cluster could be started: its rows are missing**"}.`,
    "",
    `One turn, every row: load the session's recent history (a window of the last ${WINDOW} messages), answer with an instant model, persist the user message and the answer.`,
    "",
    `- **agentcore** (this repo): one \`new Agent({ model, memory: new SlidingWindowMemory({ maxTurns: ${WINDOW / 2 + 1}, stablePrefix: false }), memoryStore })\` per worker, \`agent.run({ input, sessionId })\` per turn: the cross-process session lock, the tail read, the user message persisted before the model call, the answer after. Redis: one ioredis connection per worker (\`new Redis(url)\` / \`new Cluster(nodes)\`); PostgreSQL: \`new pg.Pool({ max: ${plan.poolSize} })\` per worker. *waitForReplicas 1*: \`waitForReplicas: { replicas: 1, timeoutMs: 2000 }\` (each write acknowledged by a replica before it counts).`,
    `- **Mastra** (\`@mastra/pg\` ${version("@mastra/pg")}, \`@mastra/memory\` ${version("@mastra/memory")}, \`@mastra/core\` ${version("@mastra/core")}): \`new PostgresStore({ connectionString, schemaName, max: ${plan.poolSize} })\`, \`memory.rememberMessages({ lastMessages: ${WINDOW} })\` then \`memory.saveMessages\` of the user message and the answer, as Mastra's Agent does per turn; semantic recall, working memory and title generation off.`,
    `- **LangGraph** (\`@langchain/langgraph-checkpoint-postgres\` ${version("@langchain/langgraph-checkpoint-postgres")}, \`@langchain/langgraph\` ${version("@langchain/langgraph")}): \`new PostgresSaver(new pg.Pool({ max: ${plan.poolSize} }), undefined, { schema })\`, \`setup()\` once per run, a one-node graph (\`trimMessages\` to the last ${WINDOW + 1}, then the answer) compiled with it, \`graph.invoke({ messages: [human] }, { configurable: { thread_id } })\` per turn.`,
    "",
    table(
      [
        "stored sessions",
        "library and store",
        "turns/s",
        "p50",
        "p99",
        "p99 ÷ p50",
        "app-server CPU per turn",
        "PostgreSQL CPU per turn",
        "lost / duplicated",
        "sessions out of order",
        "failed turns",
      ],
      rows,
    ),
    "",
    `Throughput ratios in the same run: agentcore on PostgreSQL ÷ each alternative on PostgreSQL (in brackets: the alternative's app-server CPU per turn ÷ agentcore's, which the machine's load moves far less); then agentcore on Redis and on the Redis Cluster ÷ the best PostgreSQL alternative (another store: what moving the history to Redis buys).`,
    "",
    table(
      [
        "stored sessions",
        ...alternatives.map((alternative) => `agentcore PG ÷ ${alternative.name}`),
        "agentcore PG ÷ best alternative",
        ...running
          .filter((contender) => contender.store !== "PostgreSQL")
          .map(
            (contender) =>
              `${contender.name.replace(/^agentcore RedisMemoryStore/, "agentcore Redis")} ÷ best alternative`,
          ),
      ],
      ratioRows,
    ),
    ...(scaleRows.length === 0
      ? []
      : [
          "",
          `Cost at ${number(last)} stored sessions ÷ cost at ${number(first)} (same run; above 1× is slower with more sessions stored):`,
          "",
          table(
            ["library and store", "p50 per turn", "time per turn (1 ÷ throughput)", "app-server CPU per turn"],
            scaleRows,
          ),
        ]),
  ].join("\n");
}
