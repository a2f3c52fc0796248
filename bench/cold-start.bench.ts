/**
 * Cold start: what a fresh process (a new serverless instance) pays before its first answer,
 * measured in new node processes, side by side in one run with importing the `ai` package alone.
 * Each cell runs in its own process; the cells take turns, round after round, and the table
 * gives medians. agentcore is the built package (dist/, as users import it); the model is a
 * tiny inline one answering at once, so the figures are agentcore's own cost.
 */
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureFreshBuild } from "../test/helpers/ensure-build";
import { formatMs, formatSample, summarise, table, type Benchmark } from "./harness";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface Cell {
  label: string;
  /** Module code: sets `imported` after its imports and `answered` after the first turn (or leaves it undefined). */
  script: string;
}

const model = `{
  provider: "openai",
  modelId: "gpt-4o-mini",
  async doGenerate() { return { text: "Hello! How can I help?", toolCalls: [], finishReason: "stop", usage: { inputTokens: 30, outputTokens: 6, totalTokens: 36 } }; },
  async *doStream() { yield { type: "text-delta", delta: "Hello!" }; yield { type: "finish", finishReason: "stop", usage: { inputTokens: 30, outputTokens: 6, totalTokens: 36 } }; },
}`;

/** A first turn of an agent with this strategy, on a new session or on a stored history. */
function turn(memory: string, seeded = 0): string {
  const seed = seeded
    ? `const history = []; for (let index = 0; index < ${seeded}; index++) history.push({ id: "u" + index, role: "user", content: "Tell me more about the mountains and the weather up there, and what to pack for a week of walking. " + index, timestamp: 1 }, { id: "a" + index, role: "assistant", content: "Pack layers, a rain shell, good boots, a map and enough water; the weather turns fast above the tree line. " + index, timestamp: 1 });
       await store.setMessages("s", history);`
    : "";
  return `
    const { Agent, InMemoryStore } = await import("agentcore");
    imported = performance.now();
    const store = new InMemoryStore();
    ${seed}
    const agent = new Agent({ model: ${model}, memory: "${memory}", memoryStore: store, sessionId: "s" });
    const result = await agent.run("Hi! What should I pack for the Alps?");
    if (!result.text) throw new Error("no answer");
    answered = performance.now();`;
}

const cells: Cell[] = [
  { label: "import `ai` (the AI SDK) alone", script: `await import("ai"); imported = performance.now();` },
  { label: "import `agentcore`", script: `await import("agentcore"); imported = performance.now();` },
  { label: "import + first turn, `sliding_window`", script: turn("sliding_window") },
  { label: "import + first turn, `token_window`", script: turn("token_window") },
  { label: "import + first turn, `summary`", script: turn("summary") },
  { label: "import + first turn, `full`", script: turn("full") },
  {
    label: "import + first turn, `token_window`, 40 stored turns (over its byte bound: loads the tokenizer)",
    script: turn("token_window", 40),
  },
  {
    label: "import + first `estimateTokens` (loads o200k_base)",
    script: `const { estimateTokens } = await import("agentcore"); imported = performance.now(); estimateTokens("hello world"); answered = performance.now();`,
  },
];

interface Run {
  importMs: number;
  totalMs: number;
  rssMb: number;
}

function runCell(cell: Cell): Run {
  const script = `
    import { performance } from "node:perf_hooks";
    let imported, answered;
    const start = performance.now();
    ${cell.script}
    const end = answered ?? imported;
    process.stdout.write(JSON.stringify({ importMs: imported - start, totalMs: end - start, rssMb: process.memoryUsage().rss / 2 ** 20 }));
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  if (child.status !== 0)
    throw new Error(`cold start "${cell.label}": the child process failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as Run;
}

export const benchmark: Benchmark = {
  title: "Cold start: import and first turn in a fresh process, beside importing `ai`",
  async run({ quick }) {
    await ensureFreshBuild();
    const rounds = quick ? 1 : 11;
    const runs = cells.map(() => [] as Run[]);
    for (let round = 0; round < rounds; round++) cells.forEach((cell, index) => runs[index]!.push(runCell(cell)));

    const median = (values: number[]) => summarise(values);
    const aiImport = median(runs[0]!.map((run) => run.totalMs)).median;
    const rows = cells.map((cell, index) => {
      const total = median(runs[index]!.map((run) => run.totalMs));
      const importOnly = median(runs[index]!.map((run) => run.importMs));
      const rss = median(runs[index]!.map((run) => run.rssMb));
      return [
        cell.label,
        formatMs(importOnly.median),
        formatSample(total),
        `${(total.median / aiImport).toFixed(2)}×`,
        `${rss.median.toFixed(0)} MB`,
      ];
    });
    const tokenWindow = median(runs[3]!.map((run) => run.totalMs)).median;
    return [
      `Each row: ${rounds} fresh \`node\` processes (the rows take turns, round after round), medians with the 10th–90th percentile spread. ` +
        "Times run from the start of the script's first import (Node's own start-up, the same for every row, is left out). " +
        "RSS is the process's resident memory at the end. The model answers at once (an inline `LanguageModel`), so the turn costs are agentcore's.",
      "",
      table(["cell", "import", "import + first turn", "vs importing `ai`", "RSS after"], rows),
      "",
      `Target: import plus the first \`token_window\` turn no slower than importing \`ai\` alone: **${(tokenWindow / aiImport).toFixed(2)}×** in this run ` +
        `(${formatMs(tokenWindow)} against ${formatMs(aiImport)}). The tokenizer (o200k_base, ~2.4 MB of ranks) is loaded only by what has to count: ` +
        "a token window whose history fits its budget even by the UTF-8 byte bound (a token is at least one byte) keeps it without counting, " +
        "so a short conversation never loads it; the first history over the bound, a summary being written, or a direct `estimateTokens` call loads it, once per process (the last two rows).",
    ].join("\n");
  },
};
