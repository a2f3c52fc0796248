import {
  BufferMemory,
  SlidingWindowMemory,
  SummaryMemory,
  TokenWindowMemory,
  estimateMessagesTokens,
  type AgentMessage,
  type IMemoryStrategy,
} from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { configureTokenCountCache } from "../src/tokens/token-count-cache";
import { formatMs, formatSample, measure, table, type Benchmark } from "./harness";

/** A stored conversation: turns of a user message, sometimes a tool call and result, and an answer. */
function conversation(messages: number, prefix: string): AgentMessage[] {
  const history: AgentMessage[] = [];
  let turn = 0;
  while (history.length < messages) {
    history.push({
      id: `${prefix}-${turn}-u`,
      role: "user",
      content: `Question ${turn}: what about the weather in city number ${turn}, and the forecast?`,
      timestamp: turn,
    });
    if (turn % 3 === 0) {
      history.push({
        id: `${prefix}-${turn}-a1`,
        role: "assistant",
        content: "",
        toolCalls: [{ id: `${prefix}-${turn}-c`, name: "get_weather", arguments: { city: `city ${turn}` } }],
        timestamp: turn,
      });
      history.push({
        id: `${prefix}-${turn}-t`,
        role: "tool",
        toolCallId: `${prefix}-${turn}-c`,
        name: "get_weather",
        content: JSON.stringify({ city: `city ${turn}`, temperature: 20 + (turn % 10), sky: "clear", wind: "light" }),
        timestamp: turn,
      });
    }
    history.push({
      id: `${prefix}-${turn}-a`,
      role: "assistant",
      content: `In city ${turn} it is sunny with a light wind; tomorrow looks much the same, ${"with some detail ".repeat(3)}`,
      timestamp: turn,
    });
    turn++;
  }
  return history;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Imports agentcore in a new node process and times its first token count there, in ms. */
function coldStartInFreshProcess(): number {
  const script = `
    import { performance } from "node:perf_hooks";
    import { estimateMessagesTokens } from "agentcore";
    const start = performance.now();
    estimateMessagesTokens([{ role: "user", content: "warm up" }]);
    process.stdout.write(String(performance.now() - start));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms))
    throw new Error(`tokenizer cold start: the child process failed (${run.status}): ${run.stderr}`);
  return ms;
}

/** A fresh copy, as a store read gives (new objects, same ids). */
const read = (history: AgentMessage[]) => history.map((message) => ({ ...message }));

export const benchmark: Benchmark = {
  title: "Context strategies and token counting",
  async run({ quick }) {
    const sections: string[] = [];

    // 1. Tokenizer cold start: the first count in a fresh process loads o200k_base lazily. Each
    // sample is a new node process (this one has counted already, when another bench ran first).
    const colds: number[] = [];
    for (let index = 0; index < (quick ? 1 : 7); index++) colds.push(coldStartInFreshProcess());
    colds.sort((a, b) => a - b);
    sections.push(
      `Tokenizer cold start (the first count in a fresh process loads o200k_base lazily; ${colds.length} fresh processes): **${formatMs(colds[Math.floor(colds.length / 2)]!)}** median (${formatMs(colds[0]!)}–${formatMs(colds.at(-1)!)}).`,
    );

    // 2. Strategy cost per turn: apply + token counting of the window, the history re-read from the store each turn.
    const sizes = quick ? [100, 2_000] : [100, 10_000, 100_000];
    const rows: string[][] = [];
    const model = { provider: "openai", modelId: "gpt-4o" } as const;
    const strategies: [string, () => IMemoryStrategy][] = [
      ["sliding_window (20 turns)", () => new SlidingWindowMemory({ maxTurns: 20 })],
      ["token_window (4000)", () => new TokenWindowMemory({ maxTokens: 4000 })],
      ["buffer (40 messages, 4000 tokens)", () => new BufferMemory({ maxMessages: 40, maxTokens: 4000 })],
    ];
    for (const size of sizes) {
      const history = conversation(size, `b${size}`);
      for (const [name, make] of strategies) {
        const strategy = make();
        for (const cached of [true, false]) {
          configureTokenCountCache({ enabled: cached, clear: true });
          const runs = quick ? 3 : size >= 100_000 ? 10 : 30;
          // Fresh copies made before timing: the copy is the store's cost, not the strategy's.
          const copies = Array.from({ length: runs + 1 }, () => read(history));
          const turn = async () => {
            const window = await strategy.apply(copies.pop()!, { sessionId: "bench", model: model as never });
            estimateMessagesTokens(window.messages, { model: "gpt-4o" });
          };
          const sample = await measure(turn, { runs, warmup: 1 });
          rows.push([String(size), name, cached ? "on" : "off", formatSample(sample)]);
        }
      }
    }
    configureTokenCountCache({ enabled: true, clear: true });
    sections.push(
      "Strategy cost per turn: `apply` on the stored history (a fresh copy per turn, as a store read gives) plus counting the window, median (p10–p90):\n\n" +
        table(["stored messages", "strategy", "count cache", "per turn"], rows),
    );

    // 3. Summary: cost of a turn that reuses the stored summary record (no summariser call).
    const summaryRows: string[][] = [];
    for (const size of quick ? [100] : [100, 10_000]) {
      const summarizer = new MockLanguageModel({
        responses: () => ({ text: "A short summary of the earlier turns." }),
      });
      const history = conversation(size, `s${size}`);
      const strategy = new SummaryMemory({
        summarizeThreshold: 40,
        recentMessages: 20,
        model: summarizer,
        maxDigestLength: 10_000_000,
      });
      const store = {
        getMessages: async () => [],
        setMessages: async () => {},
        clearMessages: async () => {},
        getFacts: async () => [],
        setFact: async () => {},
        deleteFact: async () => {},
      };
      const first = performance.now();
      await strategy.apply(read(history), { sessionId: "bench", store, model: model as never });
      const firstMs = performance.now() - first;
      const copies = Array.from({ length: (quick ? 3 : 20) + 1 }, () => read(history));
      const sample = await measure(
        () => strategy.apply(copies.pop()!, { sessionId: "bench", store, model: model as never }),
        { runs: quick ? 3 : 20, warmup: 1 },
      );
      summaryRows.push([String(size), formatMs(firstMs), formatSample(sample), String(summarizer.calls.length)]);
    }
    sections.push(
      "Summary strategy (instant scripted summariser): the first turn summarises the backlog, later turns reuse the record:\n\n" +
        table(
          ["stored messages", "first turn (summarises)", "later turns, median (p10–p90)", "summariser calls"],
          summaryRows,
        ),
    );

    // 4. Prefix stability: share of requests whose window starts at the same message as the previous request.
    const turns = quick ? 100 : 400;
    const growing = conversation(turns * 3, "p");
    const stabilityRows: string[][] = [];
    for (const [name, make] of [
      [
        "sliding_window (20 turns)",
        (stable: boolean) => new SlidingWindowMemory({ maxTurns: 20, stablePrefix: stable }),
      ],
      ["token_window (2000)", (stable: boolean) => new TokenWindowMemory({ maxTokens: 2000, stablePrefix: stable })],
    ] as const) {
      const cells: string[] = [name];
      for (const stable of [false, true]) {
        const strategy = make(stable);
        let same = 0;
        let requests = 0;
        let previous: string | undefined;
        let kept = 0;
        for (let end = 1; end <= growing.length; end++) {
          if (growing[end]?.role !== "user" && end !== growing.length) continue; // one request per completed turn
          const window = await strategy.apply(growing.slice(0, end), { sessionId: "bench" });
          const first = window.messages[0]?.id;
          if (previous !== undefined) {
            requests++;
            if (first === previous) same++;
          }
          kept += window.messages.length;
          previous = first;
        }
        cells.push(
          `${((100 * same) / requests).toFixed(0)} % (avg ${(kept / (requests + 1)).toFixed(0)} messages sent)`,
        );
      }
      stabilityRows.push(cells);
    }
    sections.push(
      "Prefix stability: share of consecutive requests (the conversation growing one turn at a time) whose window starts at the same message, so a provider's prompt cache can hit:\n\n" +
        table(["strategy", "stable prefixes off", "stable prefixes on (default)"], stabilityRows),
    );
    return sections.join("\n\n");
  },
};
