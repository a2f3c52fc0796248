/**
 * Two builds of agentcore side by side on the agent-loop bench's turn, in one process:
 *
 *   npx tsx --expose-gc bench/compare-builds.ts <distA> <distB> [--quick] [--update] [--title "…"]
 *   npm run bench:builds -- <distA> <distB> …
 *   … --stores InMemoryStore --strategies sliding_window,full --sizes 1000,10000   (filters, comma-separated)
 *
 * `<dist>` is a built package's dist folder (`npx tsup` in a checkout or worktree of the commit).
 * Each build's `index.js`, `redis/`, `postgres/` and `sqlite/` entry points are imported as they
 * are published; the conversation, the instant model, the strategies and the stores are the
 * agent-loop bench's (bench/agent-loop-fixtures.ts), instantiated from each build's own classes.
 *
 * Per store × strategy × stored size, each build gets a session of its own, seeded alike; then
 * the two take turns in rounds (A then B, B then A, …), so load from other processes on the
 * machine lands on both alike. Reported per cell: each build's median (p10–p90) wall time per
 * turn, B/A of the medians, and the CPU time this process spent per turn (`process.cpuUsage`).
 * The Markdown section goes to stdout; with `--update` it replaces the section marked
 * `<!-- bench/compare-builds.ts -->` in BENCHMARKS.md (appended when missing).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type BenchLibrary,
  type LoopSession,
  type OpenedStore,
  openLoopSession,
  random,
  type StrategyUnderTest,
  stores,
  strategies,
} from "./agent-loop-fixtures";
import {
  collectGarbage,
  formatMs,
  formatSample,
  machineLine,
  replaceSection,
  summarise,
  table,
  type Sample,
} from "./harness";

const MARKER = "<!-- bench/compare-builds.ts -->";
/** The agent-loop bench's strategies compared here (`buffer` is `sliding_window` by message count). */
const STRATEGIES = ["sliding_window", "token_window", "summary", "full"];

interface Settings {
  sizes: number[];
  /** Untimed turns of each build before the first round. */
  warmup: number;
  rounds: number;
  /** Fewest rounds, whatever the budget. */
  minRounds: number;
  /** Turns of one build in a row within a round. */
  perRound: number;
  /** Once a cell's rounds have taken this long (both builds), it stops after `minRounds`. */
  budgetMs: number;
}

const FULL: Settings = {
  sizes: [100, 1_000, 10_000],
  warmup: 2,
  rounds: 8,
  minRounds: 4,
  perRound: 5,
  budgetMs: 8_000,
};
const QUICK: Settings = { sizes: [100, 1_000], warmup: 1, rounds: 2, minRounds: 2, perRound: 2, budgetMs: 0 };

interface Build {
  name: "A" | "B";
  dist: string;
  /** The commit the dist was built from, when its folder is in a git checkout. */
  label: string;
  library: BenchLibrary;
}

// ---------------------------------------------------------------- loading the builds

const here = dirname(fileURLToPath(import.meta.url));

function git(folder: string, ...args: string[]): string | undefined {
  try {
    return execFileSync("git", ["-C", folder, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/** `abc1234 (subject…)` for the checkout holding `dist`, warning when the dist looks older than its commit. */
function describe(dist: string): string {
  const line = git(dist, "log", "-1", "--format=%h%x00%ct%x00%s");
  if (line === undefined) return `\`${dist}\``;
  const [hash, time, subject] = line.split("\0") as [string, string, string];
  const built = statSync(join(dist, "index.js")).mtimeMs / 1000;
  if (built < Number(time)) console.error(`bench: ${dist} is older than its commit ${hash}: rebuild it (npx tsup)`);
  const dirty = git(dist, "status", "--porcelain", "--untracked-files=no", "--", "src", "tsup.config.ts");
  const short = subject.length > 90 ? `${subject.slice(0, 90).replace(/\s+\S*$/, "")}…` : subject;
  return `\`${hash}\`${dirty ? " plus uncommitted changes" : ""} (${short})`;
}

async function loadBuild(name: Build["name"], dist: string): Promise<Build> {
  const folder = resolve(dist);
  const entry = (subpath: string) => join(folder, subpath, "index.js");
  const missing = ["", "redis", "postgres", "sqlite"].map(entry).filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`${dist}: no ${missing.join(", ")}; build it first (npx tsup)`);
  const load = (subpath: string) => import(pathToFileURL(entry(subpath)).href);
  const [root, redis, postgres, sqlite] = await Promise.all(["", "redis", "postgres", "sqlite"].map(load));
  return { name, dist, label: describe(folder), library: { root, redis, postgres, sqlite } as BenchLibrary };
}

// ---------------------------------------------------------------- one cell

interface Side {
  build: Build;
  session?: LoopSession;
  done?: () => Promise<void>;
  times: number[];
  cpu: number[];
  /** The median wall time of each round's block of turns. */
  blocks: number[];
}

interface CellResult {
  wall: [Sample, Sample];
  cpu: [Sample, Sample];
  /** B/A of the two blocks' medians, round by round: paired, since a round's two blocks run back to back. */
  rounds: Sample;
}

/** Both builds on sessions of their own, seeded alike, taking turns in rounds (ABBA…). */
async function runCell(
  builds: [Build, Build],
  opened: [OpenedStore, OpenedStore],
  storeName: string,
  strategy: StrategyUnderTest,
  size: number,
  settings: Settings,
): Promise<CellResult> {
  const sides: Side[] = builds.map((build) => ({ build, times: [], cpu: [], blocks: [] }));
  try {
    for (const [index, side] of sides.entries()) {
      const sessionId = `bench-builds-${strategy.name}-${size}-${side.build.name}-${random()}`;
      const { store, done } = await opened[index]!.session(sessionId);
      side.done = done;
      const label = `build ${side.build.name}: ${storeName} × ${strategy.name} × ${size}`;
      side.session = await openLoopSession(side.build.library, store, sessionId, strategy, size, label);
    }
    for (let turn = 0; turn < settings.warmup; turn++) for (const side of sides) await side.session!.turn();
    const started = performance.now();
    for (
      let round = 0;
      round < settings.rounds && (round < settings.minRounds || performance.now() - started < settings.budgetMs);
      round++
    ) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        collectGarbage();
        const block: number[] = [];
        for (let turn = 0; turn < settings.perRound; turn++) {
          const cpu = process.cpuUsage();
          const start = performance.now();
          await side.session!.turn();
          block.push(performance.now() - start);
          const used = process.cpuUsage(cpu);
          side.cpu.push((used.user + used.system) / 1000);
        }
        side.times.push(...block);
        side.blocks.push(summarise(block).median);
      }
    }
    for (const side of sides) side.session!.check();
    return {
      wall: [summarise(sides[0]!.times), summarise(sides[1]!.times)],
      cpu: [summarise(sides[0]!.cpu), summarise(sides[1]!.cpu)],
      rounds: summarise(sides[1]!.blocks.map((block, round) => block / sides[0]!.blocks[round]!)),
    };
  } finally {
    for (const side of sides) await side.done?.();
  }
}

// ---------------------------------------------------------------- the report

const count = (size: number) => size.toLocaleString("en-US");
const ratio = (a: Sample, b: Sample) => b.median / a.median;

/** Whether B's p10–p90 lies wholly above or below A's. */
function spread(a: Sample, b: Sample): string {
  if (b.p10 > a.p90) return "B slower";
  if (b.p90 < a.p10) return "B faster";
  return "overlap";
}

const geometricMean = (values: number[]) =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

interface Row {
  store: string;
  strategy: string;
  size: number;
  result: CellResult;
}

function report(
  builds: [Build, Build],
  settings: Settings,
  rows: Row[],
  skipped: string[],
  load: { start: number; max: number; end: number },
  options: { quick: boolean; title: string; command: string },
): string {
  const turns =
    settings.minRounds === settings.rounds
      ? `${settings.rounds} rounds of ${settings.perRound} turns per build`
      : `${settings.minRounds}–${settings.rounds} rounds of ${settings.perRound} turns per build (fewer than ${settings.rounds} once a cell has spent ${settings.budgetMs / 1000} s)`;
  const sections = [
    `## ${options.title}`,
    "",
    MARKER,
    "",
    `- A: ${builds[0].label}`,
    `- B: ${builds[1].label}`,
    "",
    `Command: \`${options.command}\`. ${machineLine()} Load average (1 min): ${load.start.toFixed(1)} at the start, ${load.max.toFixed(1)} at most between cells, ${load.end.toFixed(1)} at the end.`,
    "",
    `One turn as in the agent-loop benchmark (one \`agent.run()\` with an instant scripted model; the same conversation, seeding and strategy settings, from bench/agent-loop-fixtures.ts), run by each build's own published entry points (\`dist/index.js\`, \`dist/redis\`, \`dist/postgres\`, \`dist/sqlite\`) imported into one process. Per cell, each build gets a session of its own seeded with N messages, runs ${settings.warmup} untimed turn${settings.warmup === 1 ? "" : "s"} (after the summary strategy's untimed first summary), then the two take turns in ${turns}, A first in even rounds and B first in odd ones, a full garbage collection before each build's block; ${options.quick ? "" : "each store first runs one untimed 100-message cell per strategy; "}stores as in the agent-loop benchmark (a new store and file per session for the embedded ones, a key prefix / schema per build on the servers, all removed at the end). Wall: median (p10–p90) per turn. B/A: ratio of the medians. Spreads: \`B slower\` / \`B faster\` when B's p10–p90 lies wholly above / below A's. B/A by round: the ratio of the two builds' block medians in each round, median (p10–p90) over the rounds; a round's two blocks run back to back, so this pairs them under the same load. CPU: the median CPU time this process spent per turn (\`process.cpuUsage\`; the database servers' own work is not in it).`,
  ];
  for (const store of [...new Set(rows.map((row) => row.store))]) {
    sections.push(
      "",
      `### ${store}`,
      "",
      table(
        ["strategy", "stored", "A wall", "B wall", "B/A", "spreads", "B/A by round", "CPU A → B"],
        rows
          .filter((row) => row.store === store)
          .map(({ strategy, size, result: { wall, cpu, rounds } }) => [
            `\`${strategy}\``,
            count(size),
            formatSample(wall[0]),
            formatSample(wall[1]),
            `${ratio(wall[0], wall[1]).toFixed(2)}×`,
            spread(wall[0], wall[1]),
            `${rounds.median.toFixed(2)}× (${rounds.p10.toFixed(2)}–${rounds.p90.toFixed(2)})`,
            `${formatMs(cpu[0].median)} → ${formatMs(cpu[1].median)} (${ratio(cpu[0], cpu[1]).toFixed(2)}×)`,
          ]),
      ),
    );
  }
  const byStore = [...new Set(rows.map((row) => row.store))].map((store) => {
    const cells = rows.filter((row) => row.store === store);
    const spreads = cells.map((row) => spread(row.result.wall[0], row.result.wall[1]));
    return [
      store,
      `${geometricMean(cells.map((row) => ratio(...row.result.wall))).toFixed(2)}×`,
      `${geometricMean(cells.map((row) => ratio(...row.result.cpu))).toFixed(2)}×`,
      `${spreads.filter((value) => value === "B slower").length} / ${spreads.filter((value) => value === "B faster").length} of ${cells.length}`,
      `${cells.filter((row) => row.result.rounds.p10 > 1).length} / ${cells.filter((row) => row.result.rounds.p90 < 1).length} of ${cells.length}`,
    ];
  });
  sections.push(
    "",
    "### By store",
    "",
    "Geometric mean of B/A over the store's cells; how many cells' spreads do not overlap; how many cells' round-by-round B/A lies wholly above / below 1 (p10 > 1: B slower in at least 9 rounds of 10).",
    "",
    table(["store", "B/A wall", "B/A CPU", "spreads: B slower / B faster", "by round: B slower / B faster"], byStore),
  );
  if (skipped.length > 0) sections.push("", ...skipped);
  return `${sections.join("\n")}\n`;
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const update = args.includes("--update");
  const titleAt = args.indexOf("--title");
  const title = titleAt === -1 ? "Two builds side by side: the agent loop" : args[titleAt + 1];
  // --stores / --strategies / --sizes: comma-separated filters (store names, strategy names, stored sizes).
  const list = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : (args[at + 1] ?? "").split(",").filter(Boolean);
  };
  const valued = ["--title", "--stores", "--strategies", "--sizes"]
    .map((name) => args.indexOf(name))
    .filter((at) => at !== -1);
  const dists = args.filter((arg, index) => !arg.startsWith("--") && !valued.includes(index - 1));
  if (dists.length !== 2 || title === undefined) {
    console.error(
      "usage: npx tsx --expose-gc bench/compare-builds.ts <distA> <distB> [--quick] [--update] [--title <section title>] [--stores a,b] [--strategies a,b] [--sizes n,m]",
    );
    process.exit(2);
  }
  if (update && quick) {
    console.error("bench: --update writes BENCHMARKS.md, which holds full-mode numbers only: drop --quick");
    process.exit(2);
  }
  if (typeof (globalThis as { gc?: unknown }).gc !== "function")
    console.error("bench: run with --expose-gc, or the garbage of one build's turns is collected during the other's");
  const builds: [Build, Build] = [await loadBuild("A", dists[0]!), await loadBuild("B", dists[1]!)];
  const sizes = list("--sizes")?.map(Number);
  const settings = { ...(quick ? QUICK : FULL), ...(sizes ? { sizes } : {}) };
  const strategyNames = list("--strategies") ?? STRATEGIES;
  const storeNames = list("--stores");
  const chosen = strategies.filter((strategy) => strategyNames.includes(strategy.name));
  const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-builds-"));
  const rows: Row[] = [];
  const skipped: string[] = [];
  const load = { start: loadavg()[0]!, max: loadavg()[0]!, end: 0 };
  try {
    for (const storeUnderTest of stores.filter((store) => !storeNames || storeNames.includes(store.name))) {
      const opened: OpenedStore[] = [];
      try {
        for (const build of builds) {
          const store = await storeUnderTest.open(directory, build.library);
          if (typeof store === "string") {
            skipped.push(`${storeUnderTest.name} ${store}.`);
            break;
          }
          opened.push(store);
        }
        if (opened.length < 2) continue;
        const pair = opened as [OpenedStore, OpenedStore];
        // Untimed: compiling each build's code paths and warming its connections.
        if (!quick)
          for (const strategy of chosen) await runCell(builds, pair, storeUnderTest.name, strategy, 100, QUICK);
        for (const strategy of chosen) {
          for (const size of settings.sizes) {
            const result = await runCell(builds, pair, storeUnderTest.name, strategy, size, settings);
            rows.push({ store: storeUnderTest.name, strategy: strategy.name, size, result });
            load.max = Math.max(load.max, loadavg()[0]!);
            console.error(
              `bench: builds ${storeUnderTest.name} × ${strategy.name} × ${count(size)}: A ${formatSample(result.wall[0])}, B ${formatSample(result.wall[1])}, B/A ${ratio(...result.wall).toFixed(2)}×, ${result.wall[0].runs} turns each`,
            );
          }
        }
      } finally {
        for (const store of opened) await store.close();
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  load.end = loadavg()[0]!;
  const root = join(here, "..");
  const shown = (dist: string) => {
    const path = relative(process.cwd(), resolve(dist));
    return path.includes(" ") ? JSON.stringify(path) : path;
  };
  const command = [
    "npx tsx --expose-gc bench/compare-builds.ts",
    ...dists.map(shown),
    ...(quick ? ["--quick"] : []),
    ...(["--stores", "--strategies", "--sizes"] as const).flatMap((name) => {
      const values = list(name);
      return values ? [name, values.join(",")] : [];
    }),
    ...(update ? ["--update"] : []),
    ...(titleAt === -1 ? [] : ["--title", JSON.stringify(title)]),
  ].join(" ");
  const section = report(builds, settings, rows, skipped, load, { quick, title, command });
  if (update) {
    const path = join(root, "BENCHMARKS.md");
    writeFileSync(path, replaceSection(readFileSync(path, "utf8"), MARKER, section));
    console.error("bench: updated the compare-builds section of BENCHMARKS.md");
  } else process.stdout.write(section);
}

await main();
