/**
 * Semantic recall reads under a profiler, or side by side with another checkout: builds the
 * indexes of bench/recall.bench.ts's latency part (one user scope holding N LoCoMo turns repeated
 * under new ids, `limit` 10, a different LoCoMo question each read) and times the reads.
 *
 *   npx tsx --expose-gc scripts/profile-recall.ts [--sizes 1000,10000,100000] [--runs 400]
 *       [--exhaustive] [--options '{"b":0.5}'] [--compare ../other-checkout [--other-only]]
 *       [--compare-options '{"contextWeight":0}'] [--profile out.cpuprofile]
 *   npx tsx scripts/cpu-profile-summary.ts out.cpuprofile
 *
 * `--compare` loads `SemanticMemoryProvider` and `InMemorySemanticIndex` from another checkout's
 * src/ too (it needs a node_modules) and interleaves the two read by read, the order alternating;
 * it also checks both return the same memories. `--compare-options` compares this checkout with
 * itself under other index options instead (what a ranking feature costs). `--profile` records
 * only the timed reads of the largest size, through the inspector. Prints p50 / p95 per read and
 * the heap each provider holds (with --expose-gc; reliable for the first variant built only, the
 * later ones share what it allocated). Not a benchmark (bench/ holds those): a harness.
 */
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import * as here from "agentcore";
import { loadLocomo } from "../bench/locomo";
import { synthesise } from "../bench/recall.bench";

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const sizes = (option("--sizes") ?? "1000,10000,100000").split(",").map(Number);
const runs = Number(option("--runs") ?? 400);
const profilePath = option("--profile");
const comparePath = option("--compare");
/** More `InMemorySemanticIndexOptions` for every index, e.g. to see what a ranking feature costs. */
const indexOptions = JSON.parse(option("--options") ?? "{}") as Record<string, unknown>;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

type Module = Pick<typeof here, "SemanticMemoryProvider" | "InMemorySemanticIndex">;
const variants: { name: string; module: Module; options?: Record<string, unknown> }[] = args.includes("--other-only")
  ? []
  : [{ name: "this checkout", module: here }];
if (comparePath)
  variants.push({
    name: comparePath,
    module: (await import(pathToFileURL(resolve(comparePath, "src/index.ts")).href)) as Module,
  });
const compareOptions = option("--compare-options");
if (compareOptions)
  variants.push({
    name: `this checkout, ${compareOptions}`,
    module: here,
    options: JSON.parse(compareOptions) as Record<string, unknown>,
  });

const conversations = loadLocomo();
const queries = conversations.flatMap((conversation) => conversation.questions.map((question) => question.question));
const percentile = (times: number[], q: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * (times.length - 1)))]!;
const format = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

for (const size of sizes) {
  const memories = synthesise(conversations, size);
  const providers: InstanceType<Module["SemanticMemoryProvider"]>[] = [];
  const bytes: number[] = [];
  for (const { module, options } of variants) {
    const before = heap();
    const provider = new module.SemanticMemoryProvider({
      scope: "user",
      index: new module.InMemorySemanticIndex({
        ...indexOptions,
        ...options,
        maxDocuments: size,
        ...(args.includes("--exhaustive") ? { pruning: false } : {}),
      }),
    });
    for (let start = 0; start < memories.length; start += 1_000) {
      await provider.write(memories.slice(start, start + 1_000), { sessionId: `s${start % 3}`, userId: "bench" });
    }
    bytes.push(heap() - before);
    providers.push(provider);
  }
  const times: number[][] = variants.map(() => []);
  const profiling = profilePath !== undefined && size === sizes[sizes.length - 1];
  const session = new Session();
  let mismatches = 0;
  for (let run = -20; run < runs; run++) {
    if (run === 0 && profiling) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    }
    const query = queries[(run + queries.length) % queries.length]!;
    const order =
      run % 2 === 0 ? providers.map((_, index) => index) : providers.map((_, index) => providers.length - 1 - index);
    const seen: string[] = [];
    for (const which of order) {
      const started = performance.now();
      const records = await providers[which]!.read({ userId: "bench", query, limit: 10 });
      if (run >= 0) times[which]!.push(performance.now() - started);
      // Scores to 12 digits: a change in the order of a sum moves the last bits.
      seen[which] = JSON.stringify(records.map((record) => [record.messageId, record.score?.toPrecision(12)]));
    }
    if (seen.some((result) => result !== seen[0])) {
      mismatches++;
      if (process.env.SHOW_DIFF && mismatches <= 3) console.log(query, seen);
    }
  }
  if (profiling) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(profilePath, JSON.stringify(profile));
    session.disconnect();
  }
  for (const [index, { name }] of variants.entries()) {
    const sample = times[index]!;
    console.log(
      `${size.toLocaleString("en")} memories, ${name}: p50 ${format(percentile(sample, 0.5))}, p95 ${format(percentile(sample, 0.95))}, ` +
        `heap ${(bytes[index]! / 2 ** 20).toFixed(1)} MiB (${(bytes[index]! / size).toFixed(0)} B a memory)`,
    );
  }
  if (variants.length > 1)
    console.log(
      `  ratio of p50s: ${(percentile(times[0]!, 0.5) / percentile(times[1]!, 0.5)).toFixed(2)}×, reads whose results differ: ${mismatches}`,
    );
}
