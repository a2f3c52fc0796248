/**
 * npm run bench                          full mode: every benchmark, rewrites BENCHMARKS.md
 * npm run bench -- --quick               CI smoke: small sizes, fails only on errors, never on timings
 * npm run bench -- <name>...             only bench/<name>.bench.ts, report printed, BENCHMARKS.md untouched
 * npm run bench -- --update <name>...    only those benchmarks, full mode; replaces just their sections of
 *                                        BENCHMARKS.md (found by their `<!-- bench/<file> -->` marker,
 *                                        appended when missing), refreshes the Date line, keeps the rest
 *
 * Each bench/<name>.bench.ts exports `benchmark: Benchmark`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Benchmark, machineLine as machineOf, replaceSection } from "./harness";

const here = dirname(fileURLToPath(import.meta.url));
const reportPath = join(here, "..", "BENCHMARKS.md");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const update = args.includes("--update");
const only = args.filter((arg) => !arg.startsWith("--"));

const available = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .sort();
const nameOf = (file: string) => file.replace(/\.bench\.ts$/, "");

if (update) {
  const unknown = only.filter((name) => !available.some((file) => nameOf(file) === name));
  const problem =
    only.length === 0
      ? "--update needs the names of the benchmarks to rerun"
      : quick
        ? "--update writes BENCHMARKS.md, which holds full-mode numbers only: drop --quick"
        : unknown.length > 0
          ? `no bench/<name>.bench.ts for ${unknown.join(", ")}`
          : undefined;
  if (problem) {
    console.error(
      `bench: ${problem}. Available: ${available.map(nameOf).join(", ")}. Example: npm run bench -- --update agent-loop`,
    );
    process.exit(2);
  }
}

const files = available.filter((file) => only.length === 0 || only.includes(nameOf(file)));

const sections: { file: string; text: string }[] = [];
for (const file of files) {
  const { benchmark } = (await import(pathToFileURL(join(here, file)).href)) as { benchmark: Benchmark };
  const started = Date.now();
  console.error(`bench: ${file}${quick ? " (quick)" : ""}`);
  const body = await benchmark.run({ quick });
  console.error(`bench: ${file} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  sections.push({ file, text: `## ${benchmark.title}\n\n${marker(file)}\n\n${body.trim()}\n` });
}

const today = new Date().toISOString().slice(0, 10);
const machineLine = machineOf();
const dateLine = update
  ? `Date: ${today}. Command: \`npm run bench -- --update ${only.join(" ")}\` (only those sections rerun; the others are from earlier runs).`
  : `Date: ${today}. Command: \`npm run bench\`${only.length ? ` (${only.join(", ")})` : ""}.`;
const header = `# agentcore benchmarks

${machineLine}
${dateLine}

How to read these numbers: each figure is the median of several timed runs after warm-up, with
the 10th–90th percentile spread in brackets. Ratios compare numbers measured side by side in
this one run; a full garbage collection runs before each timed cell (untimed seeding leaves
plenty). The machine is a shared 2-core box, so absolute times move between runs; the
ratios and the shape of each curve are what to rely on. Timings are never asserted in tests.
One benchmark's sections can be rerun alone with \`npm run bench -- --update <name>\` (the Date line
then says which); a section's numbers always come from one run.
`;

if (update) {
  const report = existsSync(reportPath)
    ? updateReport(readFileSync(reportPath, "utf8"))
    : `${header}\n${sections.map((section) => section.text).join("\n")}`;
  writeFileSync(reportPath, report);
  console.error(`bench: updated ${sections.map((section) => nameOf(section.file)).join(", ")} in BENCHMARKS.md`);
} else if (quick || only.length > 0) {
  console.log(`${header}\n${sections.map((section) => section.text).join("\n")}`);
} else {
  writeFileSync(reportPath, `${header}\n${sections.map((section) => section.text).join("\n")}`);
  console.error("bench: wrote BENCHMARKS.md");
}

function marker(file: string): string {
  return `<!-- bench/${file} -->`;
}

/**
 * The existing report with each rerun benchmark's `## ` section replaced (the section holding its
 * marker) or appended, and the Date line refreshed. The Machine line is kept: when this machine
 * differs, the other sections were measured elsewhere, so say so instead of hiding it.
 */
function updateReport(existing: string): string {
  let report = existing;
  for (const section of sections) report = replaceSection(report, marker(section.file), section.text);
  const firstSection = report.search(/^## /m);
  const head = firstSection === -1 ? report : report.slice(0, firstSection);
  const previousMachine = head.match(/^Machine: .*$/m)?.[0];
  if (previousMachine !== undefined && previousMachine !== machineLine) {
    console.error(
      `bench: BENCHMARKS.md's other sections were measured on another machine or Node:\n  ${previousMachine}\n  this run: ${machineLine}`,
    );
  }
  return /^Date: .*$/m.test(head) ? report.replace(/^Date: .*$/m, dateLine) : report;
}
