import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import pg from "pg";

/** Options every benchmark receives. */
export interface BenchOptions {
  /** CI smoke mode: small sizes, few iterations; must finish fast and never judge timings. */
  quick: boolean;
}

/** One benchmark module: `bench/<name>.bench.ts` exports `benchmark`. */
export interface Benchmark {
  /** Section title in BENCHMARKS.md. */
  title: string;
  /** Runs the measurements and returns the Markdown body of its section. */
  run(options: BenchOptions): Promise<string>;
}

export interface Sample {
  median: number;
  p10: number;
  p90: number;
  runs: number;
}

/**
 * Times `fn` `runs` times after `warmup` untimed calls and returns the median and spread in
 * milliseconds. With `budgetMs`, stops early once the timed calls have spent that long (after at
 * least `minRuns`, default 5), so a slow cell keeps a full run within minutes.
 */
export async function measure(
  fn: () => unknown | Promise<unknown>,
  options: { runs: number; warmup?: number; budgetMs?: number; minRuns?: number },
): Promise<Sample> {
  for (let index = 0; index < (options.warmup ?? Math.min(5, options.runs)); index++) await fn();
  const times: number[] = [];
  const started = performance.now();
  const budget = options.budgetMs ?? Infinity;
  const minRuns = options.minRuns ?? 5;
  while (times.length < options.runs && (times.length < minRuns || performance.now() - started < budget)) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return summarise(times);
}

/** Median and 10th–90th percentiles of timings in milliseconds. */
export function summarise(values: number[]): Sample {
  const times = [...values].sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * (times.length - 1)))]!;
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), runs: times.length };
}

/** A pool for a bench, or why the rows are skipped. */
export async function connectPostgres(url: string): Promise<pg.Pool | string> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    await pool.query("SELECT 1");
    return pool;
  } catch {
    await pool.end();
    return `skipped: PostgreSQL not reachable at ${url}`;
  }
}

/** Connects to Redis for a bench, or says why the rows are skipped. */
export async function connectRedis(url: string): Promise<Redis | string> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await client.connect();
    return client;
  } catch {
    client.disconnect();
    return `skipped: Redis not reachable at ${url}`;
  }
}

/** Formats milliseconds for a table: µs below 1 ms. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}

/** `median (p10–p90)` */
export function formatSample(sample: Sample): string {
  return `${formatMs(sample.median)} (${formatMs(sample.p10)}–${formatMs(sample.p90)})`;
}

/** A Markdown table. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * A full garbage collection, when node runs with `--expose-gc` (`npm run bench` does): called
 * before each timed cell, so a cell does not pay for the garbage its untimed seeding, or the cell
 * before it, left behind.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** The Machine line of BENCHMARKS.md: cores, CPU, memory, Node, platform. */
export function machineLine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}.`;
}

/**
 * `report` (BENCHMARKS.md) with the `## ` section holding `marker` replaced by `section`, or
 * `section` appended when no section holds it; the head (before the first section) is kept.
 */
export function replaceSection(report: string, marker: string, section: string): string {
  const firstSection = report.search(/^## /m);
  const head = firstSection === -1 ? report : report.slice(0, firstSection);
  const parts = firstSection === -1 ? [] : report.slice(firstSection).split(/^(?=## )/m);
  const index = parts.findIndex((part) => part.includes(marker));
  if (index === -1) parts.push(section);
  else parts[index] = section;
  return `${head.trimEnd()}\n\n${parts.map((part) => part.trim()).join("\n\n")}\n`;
}
