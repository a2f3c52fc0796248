/**
 * One app server of bench/load.bench.ts: a process forked by the bench (bundled by
 * `WorkerProcess.bundle`), which opens the cell's contender when told, runs the turns the bench
 * (the load balancer) sends it, concurrently, and answers each with the time the turn took in
 * this process. Worker 0 also seeds each cell's store and reads its sessions back, so the bench
 * process never loads the libraries.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { contenderOf, type CellConfig, type OpenContender, type StoredTranscript } from "./contenders";

export type ToWorker =
  | { type: "open"; id: number; config: CellConfig }
  | { type: "close"; id: number }
  | { type: "seed"; id: number; config: CellConfig; active: string[]; fillerCount: number }
  | { type: "read"; id: number; config: CellConfig; sessionIds: string[] }
  | { type: "turn"; id: number; sessionId: string; turn: number };

export type FromWorker = { type: "started" } | { id: number; ms: number; error?: string; transcripts?: StoredTranscript[]; cpu?: { micros: number; turns: number } };

let open: OpenContender | undefined;
/** CPU time this process spent since the contender was opened, and the turns it ran. */
let cpuFrom = process.cpuUsage();
let turns = 0;
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

async function handle(message: ToWorker): Promise<{ transcripts?: StoredTranscript[]; cpu?: { micros: number; turns: number } }> {
  switch (message.type) {
    case "open":
      open = await (await contenderOf(message.config.contender).load()).open(message.config);
      cpuFrom = process.cpuUsage();
      turns = 0;
      return {};
    case "close": {
      const { user, system } = process.cpuUsage(cpuFrom);
      await open?.close();
      open = undefined;
      return { cpu: { micros: user + system, turns } };
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
        for (const sessionId of message.sessionIds) all.push(await implementation.read(message.config, sessionId, pool));
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
    (error: unknown) => process.send!({ id: message.id, ms: performance.now() - started, error: text(error) } satisfies FromWorker),
  );
});
process.on("disconnect", () => process.exit(0));
process.send!({ type: "started" } satisfies FromWorker);
