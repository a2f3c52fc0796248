/**
 * npm run bench            full mode: the numbers in BENCHMARKS.md
 * npm run bench -- --quick CI smoke: small sizes, fails only on errors, never on timings
 * npm run bench -- <name>  only bench/<name>.bench.ts
 *
 * Each bench/<name>.bench.ts exports `benchmark: Benchmark`. Full mode rewrites BENCHMARKS.md.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Benchmark } from "./harness";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args.filter((arg) => !arg.startsWith("--"));

const files = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.includes(file.replace(/\.bench\.ts$/, "")))
  .sort();

const sections: string[] = [];
for (const file of files) {
  const { benchmark } = (await import(pathToFileURL(join(here, file)).href)) as { benchmark: Benchmark };
  const started = Date.now();
  console.error(`bench: ${file}${quick ? " (quick)" : ""}`);
  const body = await benchmark.run({ quick });
  console.error(`bench: ${file} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  sections.push(`## ${benchmark.title}\n\n<!-- bench/${file} -->\n\n${body.trim()}\n`);
}

const cpu = cpus()[0]?.model ?? "unknown CPU";
const header = `# agentcore benchmarks

Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}.
Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\`${only.length ? ` (${only.join(", ")})` : ""}.

How to read these numbers: each figure is the median of several timed runs after warm-up, with
the 10th–90th percentile spread in brackets. Ratios compare numbers measured side by side in
this one run. The machine is a shared 2-core box, so absolute times move between runs; the
ratios and the shape of each curve are what to rely on. Timings are never asserted in tests.
`;

const report = `${header}\n${sections.join("\n")}`;
if (quick || only.length > 0) {
  console.log(report);
} else {
  writeFileSync(join(here, "..", "BENCHMARKS.md"), report);
  console.error("bench: wrote BENCHMARKS.md");
}
