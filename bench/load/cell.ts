/**
 * One cell of bench/load.bench.ts: seed a contender's store, drive its concurrent sessions through
 * the worker processes for a fixed time, read every active session back, clean up.
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Cluster, Redis } from "ioredis";
import type pg from "pg";
import {
  REPLY,
  seedRole,
  seedText,
  turnText,
  type CellConfig,
  type Contender,
  type StoredTranscript,
} from "./contenders";
import type { FromWorker, ToWorker, WorkerStalls } from "./worker";

/** A forked app server. */
export class WorkerProcess {
  private readonly pending = new Map<number, (reply: Exclude<FromWorker, { type: "started" }>) => void>();
  private nextId = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (message: FromWorker) => {
      if ("id" in message) {
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      }
    });
    child.on("exit", (code) => {
      for (const resolve of this.pending.values())
        resolve({ id: -1, ms: 0, error: `the worker exited (code ${code})` });
      this.pending.clear();
    });
  }

  /** Bundles bench/load/worker.ts (agentcore from src, libraries external and loaded lazily) so workers start without a TypeScript loader. */
  static async bundle(): Promise<{ entry: string; remove(): void }> {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const outdir = join(root, "node_modules", ".cache", `agentcore-bench-load-${process.pid}`);
    await build({
      entryPoints: [fileURLToPath(new URL("./worker.ts", import.meta.url))],
      outdir,
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outExtension: { ".js": ".mjs" },
      tsconfig: join(root, "tsconfig.json"),
      logLevel: "warning",
    });
    return { entry: join(outdir, "worker.mjs"), remove: () => rmSync(outdir, { recursive: true, force: true }) };
  }

  static async start(entry: string): Promise<WorkerProcess> {
    const child = fork(entry, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: ["--expose-gc"] });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`a worker exited at start (code ${code})`)));
    });
    return new WorkerProcess(child);
  }

  /** Sends a request; resolves to the worker's answer (`error` set when it failed). */
  request(message: DistributiveOmit<ToWorker, "id">): Promise<Exclude<FromWorker, { type: "started" }>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.send({ ...message, id });
    });
  }

  /** A request that must succeed. */
  async call(message: DistributiveOmit<ToWorker, "id">): Promise<Exclude<FromWorker, { type: "started" }>> {
    const reply = await this.request(message);
    if (reply.error) throw new Error(`worker ${message.type}: ${reply.error}`);
    return reply;
  }

  stop(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface CellResult {
  turnsPerSecond: number;
  p50: number;
  p99: number;
  /** Length of the timed window: the planned time, or until the last turn running at its end finished. */
  windowSeconds: number;
  /** Turns completed in the timed window. */
  measured: number;
  /** CPU time (user + system) the worker processes spent per turn, over every turn of the cell: the app servers' own cost, whatever the machine's load. */
  cpuPerTurnMs: number;
  /** PostgreSQL cells: CPU time of the server processes of the cell's connections, per turn (undefined where /proc cannot be read). */
  serverCpuPerTurnMs?: number;
  errors: number;
  firstError?: string;
  lost: number;
  duplicated: number;
  /** Active sessions whose stored history is not the seed followed by every acknowledged turn, in order. */
  outOfOrder: number;
  seedSeconds: number;
  /** Each worker's stalls over the cell (event-loop delay, GC, involuntary context switches). */
  stalls: WorkerStalls[];
}

export interface CellPlan {
  contender: Contender;
  config: CellConfig;
  /** Sessions in the store: `active` driven ones, the rest filler. */
  sessions: number;
  active: number;
  warmupMs: number;
  measureMs: number;
  workers: WorkerProcess[];
  /** A pool for dropping the cell's schema. */
  pool: pg.Pool;
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? NaN;

export async function runCell(plan: CellPlan): Promise<CellResult> {
  const { config, workers } = plan;
  const active = Array.from({ length: plan.active }, (_, index) => `a${index}`);
  const seedStarted = performance.now();
  // Seeding writes straight to the store (worker 0), never waiting for replicas.
  const seedConfig = {
    ...config,
    contender:
      config.contender === "agentcore-redis-cluster-wait" ? ("agentcore-redis-cluster" as const) : config.contender,
  };
  try {
    await workers[0]!.call({ type: "seed", config: seedConfig, active, fillerCount: plan.sessions - plan.active });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await Promise.all(workers.map((worker) => worker.call({ type: "open", config })));
    const acked = active.map(() => [] as number[]);
    const latencies: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    let measured = 0;
    let lastAt = 0;
    let measureFrom = Infinity;
    let end = Infinity;
    // The load balancer: each session is a user who sends the next message once the answer is
    // back; each of its turns goes to the next worker in turn, so a session moves between servers.
    const turn = async (index: number, sessionId: string, number: number) => {
      const sent = performance.now();
      const reply = await workers[(index + number) % workers.length]!.request({
        type: "turn",
        sessionId,
        turn: number,
      });
      const at = performance.now();
      if (process.env.LOAD_BENCH_TRACE)
        console.error(
          `    ${sessionId} turn ${number}: ${reply.ms.toFixed(0)} ms in the worker, ${(at - sent).toFixed(0)} ms sent to answered${reply.error ? `, ${reply.error.split("\n")[0]}` : ""}`,
        );
      if (reply.error) {
        errors++;
        firstError ??= reply.error;
      } else acked[index]!.push(number);
      // Every turn that ends after the warm-up counts, the ones still running at the end included
      // (the window then stretches to the last one): a contender whose turns outlast the window is still measured.
      if (at >= measureFrom) {
        lastAt = Math.max(lastAt, at);
        measured++;
        latencies.push(reply.ms);
      }
    };
    // Untimed: every session's first turn (connections opened, code paths compiled), then the warm-up.
    await Promise.all(active.map((sessionId, index) => turn(index, sessionId, 0)));
    measureFrom = performance.now() + plan.warmupMs;
    end = measureFrom + plan.measureMs;
    await Promise.all(
      active.map(async (sessionId, index) => {
        for (let number = 1; performance.now() < end; number++) await turn(index, sessionId, number);
      }),
    );
    const serverCpuMs = config.postgresUrl.includes("application_name=")
      ? await backendCpuMs(plan.pool, new URL(config.postgresUrl).searchParams.get("application_name")!)
      : undefined;
    const closed = await Promise.all(workers.map((worker) => worker.call({ type: "close" })));
    const cpuMicros = closed.reduce((sum, reply) => sum + (reply.cpu?.micros ?? 0), 0);
    const allTurns = closed.reduce((sum, reply) => sum + (reply.cpu?.turns ?? 0), 0);
    latencies.sort((a, b) => a - b);
    const { transcripts } = await workers[0]!.call({ type: "read", config, sessionIds: active });
    return {
      turnsPerSecond: measured / (Math.max(plan.measureMs, lastAt - measureFrom) / 1000),
      windowSeconds: Math.max(plan.measureMs, lastAt - measureFrom) / 1000,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      measured,
      cpuPerTurnMs: cpuMicros / 1000 / Math.max(1, allTurns),
      ...(serverCpuMs === undefined ? {} : { serverCpuPerTurnMs: serverCpuMs / Math.max(1, allTurns) }),
      errors,
      ...(firstError === undefined ? {} : { firstError }),
      ...verify(config.history, active, acked, transcripts!),
      seedSeconds,
      stalls: closed.flatMap((reply) => (reply.stalls ? [reply.stalls] : [])),
    };
  } finally {
    await cleanUp(plan);
  }
}

/** CPU time (user + system, ms) of the PostgreSQL server processes of connections with this application name, from /proc (Linux, same machine); undefined when it cannot be read. */
async function backendCpuMs(pool: pg.Pool, applicationName: string): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [
    applicationName,
  ]);
  if (rows.length === 0) return undefined;
  let ticks = 0;
  try {
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime in clock ticks (100 per second)
    }
  } catch {
    return undefined;
  }
  return ticks * 10;
}

/** Checks every active session read back: the seed, then each acknowledged turn once, in order. */
function verify(
  history: number,
  active: string[],
  acked: number[][],
  transcripts: StoredTranscript[],
): { lost: number; duplicated: number; outOfOrder: number } {
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  for (const [index, sessionId] of active.entries()) {
    const stored = transcripts[index]!;
    const expected = [
      ...Array.from({ length: history }, (_, position) => ({ role: seedRole(position), text: seedText(position) })),
      ...acked[index]!.flatMap((turn) => [
        { role: "user", text: turnText(sessionId, turn) },
        { role: "assistant", text: REPLY },
      ]),
    ];
    const counts = new Map<string, number>();
    for (const { text } of stored) counts.set(text, (counts.get(text) ?? 0) + 1);
    const wanted = new Map<string, number>();
    for (const { text } of expected) wanted.set(text, (wanted.get(text) ?? 0) + 1);
    for (const [text, count] of wanted) {
      const have = counts.get(text) ?? 0;
      lost += Math.max(0, count - have);
      duplicated += Math.max(0, have - count);
    }
    // A failed turn's message stored anyway is neither lost nor a duplicate, but breaks the order.
    const inOrder =
      stored.length === expected.length &&
      stored.every(
        (message, position) => message.text === expected[position]!.text && message.role === expected[position]!.role,
      );
    if (!inOrder) outOfOrder++;
  }
  return { lost, duplicated, outOfOrder };
}

async function cleanUp(plan: CellPlan): Promise<void> {
  const { config } = plan;
  if (config.contender === "agentcore-redis" || config.contender === "agentcore-redis-unfolded") {
    const client = new Redis(config.redisUrl);
    try {
      let cursor = "0";
      do {
        const [next, keys] = await client.scan(cursor, "MATCH", `${config.namespace}*`, "COUNT", 5_000);
        cursor = next;
        if (keys.length > 0) await client.unlink(...keys);
      } while (cursor !== "0");
    } finally {
      await client.quit();
    }
  } else if (config.contender.startsWith("agentcore-redis-cluster")) {
    // The bench's own cluster: empty every master.
    const client = new Cluster(config.clusterNodes);
    try {
      if (client.status !== "ready") await once(client, "ready");
      await Promise.all(client.nodes("master").map((node) => node.flushall()));
    } finally {
      await client.quit();
    }
  } else {
    await plan.pool.query(`DROP SCHEMA IF EXISTS "${config.namespace}" CASCADE`);
  }
}
