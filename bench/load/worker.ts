/**
 * One app server of bench/load.bench.ts: a process forked by the bench (bundled by
 * `WorkerProcess.bundle`), which opens the cell's contender when told, runs the turns the bench
 * (the load balancer) sends it, concurrently, and answers each with the time the turn took in
 * this process. Worker 0 also seeds each cell's store and reads its sessions back, so the bench
 * process never loads the libraries.
 */
import {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
  type IntervalHistogram,
} from "node:perf_hooks";
import pg from "pg";
import { contenderOf, type CellConfig, type OpenContender, type StoredTranscript } from "./contenders";

export type ToWorker =
  | { type: "open"; id: number; config: CellConfig }
  | { type: "close"; id: number }
  | { type: "seed"; id: number; config: CellConfig; active: string[]; fillerCount: number }
  | { type: "read"; id: number; config: CellConfig; sessionIds: string[] }
  | { type: "turn"; id: number; sessionId: string; turn: number };

/** What held this process up while a cell ran: its event loop's delays (ms), garbage collection, and the times the OS took the CPU from it. */
export interface WorkerStalls {
  loopP50: number;
  loopP99: number;
  loopMax: number;
  gcMs: number;
  gcCount: number;
  /** The longest single collection, ms. */
  gcMaxMs: number;
  /** Full (mark-compact) collections: count, time and the longest, ms. */
  majorCount: number;
  majorMs: number;
  majorMaxMs: number;
  involuntarySwitches: number;
}

export type FromWorker =
  | { type: "started" }
  | {
      id: number;
      ms: number;
      error?: string;
      transcripts?: StoredTranscript[];
      cpu?: { micros: number; turns: number };
      stalls?: WorkerStalls;
    };

let open: OpenContender | undefined;
/** CPU time this process spent since the contender was opened, and the turns it ran. */
let cpuFrom = process.cpuUsage();
let turns = 0;
/** Event-loop delay, garbage collection and involuntary context switches since the contender was opened. */
let loopDelay: IntervalHistogram | undefined;
let collections = { ms: 0, count: 0, maxMs: 0, majorCount: 0, majorMs: 0, majorMaxMs: 0 };
let switchesFrom = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    collections.ms += entry.duration;
    collections.count++;
    collections.maxMs = Math.max(collections.maxMs, entry.duration);
    if (
      (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR
    ) {
      collections.majorCount++;
      collections.majorMs += entry.duration;
      collections.majorMaxMs = Math.max(collections.majorMaxMs, entry.duration);
    }
  }
}).observe({ entryTypes: ["gc"] });
const text = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

async function withPool<T>(config: CellConfig, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: config.postgresUrl, max: 4 });
  pool.on("error", () => {});
  try {
    return await body(pool);
  } finally {
    await pool.end();
  }
}

async function handle(
  message: ToWorker,
): Promise<{ transcripts?: StoredTranscript[]; cpu?: { micros: number; turns: number }; stalls?: WorkerStalls }> {
  switch (message.type) {
    case "open":
      open = await (await contenderOf(message.config.contender).load()).open(message.config);
      cpuFrom = process.cpuUsage();
      turns = 0;
      loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      collections = { ms: 0, count: 0, maxMs: 0, majorCount: 0, majorMs: 0, majorMaxMs: 0 };
      switchesFrom = process.resourceUsage().involuntaryContextSwitches;
      return {};
    case "close": {
      const { user, system } = process.cpuUsage(cpuFrom);
      loopDelay?.disable();
      const ms = (nanoseconds: number | undefined) => (nanoseconds ?? 0) / 1e6;
      const stalls: WorkerStalls = {
        loopP50: ms(loopDelay?.percentile(50)),
        loopP99: ms(loopDelay?.percentile(99)),
        loopMax: ms(loopDelay?.max),
        gcMs: collections.ms,
        gcCount: collections.count,
        gcMaxMs: collections.maxMs,
        majorCount: collections.majorCount,
        majorMs: collections.majorMs,
        majorMaxMs: collections.majorMaxMs,
        involuntarySwitches: process.resourceUsage().involuntaryContextSwitches - switchesFrom,
      };
      await open?.close();
      open = undefined;
      return { cpu: { micros: user + system, turns }, stalls };
    }
    case "turn":
      await open!.turn(message.sessionId, message.turn);
      turns++;
      return {};
    case "seed": {
      const implementation = await contenderOf(message.config.contender).load();
      const filler = Array.from({ length: message.fillerCount }, (_, index) => `f${index}`);
      await withPool(message.config, (pool) => implementation.seed(message.config, message.active, filler, pool));
      // The seeding's garbage is collected now, not during the timed turns (whose CPU is counted).
      (globalThis as { gc?: () => void }).gc?.();
      return {};
    }
    case "read": {
      const implementation = await contenderOf(message.config.contender).load();
      const transcripts = await withPool(message.config, async (pool) => {
        const all: StoredTranscript[] = [];
        for (const sessionId of message.sessionIds)
          all.push(await implementation.read(message.config, sessionId, pool));
        return all;
      });
      return { transcripts };
    }
  }
}

process.on("message", (message: ToWorker) => {
  const started = performance.now();
  handle(message).then(
    (result) => process.send!({ id: message.id, ms: performance.now() - started, ...result } satisfies FromWorker),
    (error: unknown) =>
      process.send!({ id: message.id, ms: performance.now() - started, error: text(error) } satisfies FromWorker),
  );
});
process.on("disconnect", () => process.exit(0));
process.send!({ type: "started" } satisfies FromWorker);
