import { performance } from "node:perf_hooks";

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
 * milliseconds.
 */
export async function measure(fn: () => unknown | Promise<unknown>, options: { runs: number; warmup?: number }): Promise<Sample> {
  for (let index = 0; index < (options.warmup ?? Math.min(5, options.runs)); index++) await fn();
  const times: number[] = [];
  for (let index = 0; index < options.runs; index++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * (times.length - 1)))]!;
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), runs: times.length };
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
