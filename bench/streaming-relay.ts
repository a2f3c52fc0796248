/**
 * The method of the streaming benchmarks (bench/streaming*.bench.ts), shared so each provider is
 * measured the same way: three readers of the same answer from the same loopback SSE server (the
 * raw SDK client, agentcore's adapter alone, `agent.stream()`), interleaved run by run in an order
 * that cycles through the six permutations, then medians and the medians of run-by-run ratios.
 */
import { performance } from "node:perf_hooks";
import { formatSample, summarise } from "./harness";

export interface StreamTiming {
  /** Milliseconds from the call to the first non-empty text chunk. */
  firstChunk: number;
  /** Milliseconds from the call to the end of the read (for the agent: the turn persisted). */
  total: number;
}

/**
 * Times one read of a streamed answer. `read` makes the call and passes each text chunk to
 * `onText`; the text read must be `expected` (a reader that lost a chunk must not look fast).
 */
export async function timeStream(
  label: string,
  expected: string,
  read: (onText: (text: string) => void) => Promise<void>,
): Promise<StreamTiming> {
  const start = performance.now();
  let firstChunk = -1;
  let text = "";
  await read((delta) => {
    if (delta && firstChunk < 0) firstChunk = performance.now() - start;
    text += delta;
  });
  const total = performance.now() - start;
  if (text !== expected) throw new Error(`${label}: got ${text.length} characters, expected ${expected.length}`);
  return { firstChunk, total };
}

export interface RelayReaders {
  raw: () => Promise<StreamTiming>;
  adapter: () => Promise<StreamTiming>;
  agent: () => Promise<StreamTiming>;
}

/** The three readers interleaved, so all three see the same machine load; then the table rows. */
export async function compareRelay(
  readers: RelayReaders,
  options: { runs: number; warmups: number; labels: { raw: string; adapter: string; agent: string } },
): Promise<string[][]> {
  const timings = { raw: [] as StreamTiming[], adapter: [] as StreamTiming[], agent: [] as StreamTiming[] };
  const variants = [
    ["raw", readers.raw],
    ["adapter", readers.adapter],
    ["agent", readers.agent],
  ] as const;
  for (let warm = 0; warm < options.warmups; warm++) for (const [, run] of variants) await run();
  // The order cycles through the six permutations, so each runs as often right after each other (and its garbage).
  const orders = [
    [0, 1, 2],
    [2, 1, 0],
    [1, 2, 0],
    [0, 2, 1],
    [2, 0, 1],
    [1, 0, 2],
  ] as const;
  for (let index = 0; index < options.runs; index++) {
    for (const position of orders[index % orders.length]!) {
      const [name, run] = variants[position];
      timings[name].push(await run());
    }
  }
  const sample = (name: keyof typeof timings) => ({
    first: summarise(timings[name].map((t) => t.firstChunk)),
    total: summarise(timings[name].map((t) => t.total)),
  });
  const samples = { raw: sample("raw"), adapter: sample("adapter"), agent: sample("agent") };
  // Each run's trio (back to back) shares the machine's load of that moment: the median of the run-by-run ratios is the steadiest figure on a busy box.
  const pairRatio = (over: keyof typeof timings, pick: (timing: StreamTiming) => number) =>
    summarise(timings.agent.map((timing, index) => pick(timing) / pick(timings[over][index]!))).median;
  const first = (timing: StreamTiming) => timing.firstChunk;
  const total = (timing: StreamTiming) => timing.total;
  return [
    [options.labels.raw, formatSample(samples.raw.first), formatSample(samples.raw.total)],
    [options.labels.adapter, formatSample(samples.adapter.first), formatSample(samples.adapter.total)],
    [options.labels.agent, formatSample(samples.agent.first), formatSample(samples.agent.total)],
    [
      "ratio agentcore / raw (medians)",
      `${(samples.agent.first.median / samples.raw.first.median).toFixed(2)}×`,
      `${(samples.agent.total.median / samples.raw.total.median).toFixed(2)}×`,
    ],
    [
      `ratio agentcore / raw, median of the ${options.runs} run-by-run pairs`,
      `${pairRatio("raw", first).toFixed(2)}×`,
      `${pairRatio("raw", total).toFixed(2)}×`,
    ],
    [
      `ratio agentcore / its adapter alone (the run around the model call), median of the ${options.runs} pairs`,
      `${pairRatio("adapter", first).toFixed(2)}×`,
      `${pairRatio("adapter", total).toFixed(2)}×`,
    ],
  ];
}
