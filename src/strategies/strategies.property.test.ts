// Property tests of every built-in strategy over random histories (fast-check): the pairing rule
// holds on every output, the output is an order-preserving subset of the input (tool results
// possibly cut) plus at most one summary, kept + dropped account for every input message, the
// token budget holds wherever it can, and the input is never changed.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { MockLanguageModel } from "../testing/mock-language-model";
import { InMemoryStore } from "../stores/in-memory-store";
import { loadTokenizer } from "../tokens/estimate-tokens";
import { rawMessageTokens } from "../tokens/token-count-cache";
import { cutToolResult } from "./cut-tool-result";
import { arbitraryHistory } from "./__fixtures__/arbitrary-history";
import { BufferMemory } from "./buffer-memory";
import { FullMemory } from "./full-memory";
import { groupSteps, groupTurns } from "./group-turns";
import type { IMemoryStrategy, MemoryStrategyResult } from "./memory-strategy";
import { SlidingWindowMemory } from "./sliding-window";
import { SummaryMemory } from "./summary-memory";
import { TokenWindowMemory } from "./token-window";

// Each run builds a fresh history of up to 300 turns (about 1,000 messages), tokenized from scratch.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);
// Shrinking 300-turn histories can take minutes: report the first counterexample as found
// (it carries its seed for replay), and fail a property that runs over 40 s.
fc.configureGlobal({ endOnFailure: true, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: true });

const CUT_MARKER = "[agentcore: tool result cut, ";

function sameOrCut(original: AgentMessage, sent: AgentMessage): boolean {
  if (original === sent) return true;
  return (
    original.role === "tool" &&
    sent.role === "tool" &&
    original.id === sent.id &&
    original.toolCallId === sent.toolCallId &&
    (sent.content as string).includes(CUT_MARKER) &&
    (original.content as string).startsWith(
      (sent.content as string).slice(0, (sent.content as string).indexOf("\n[agentcore:")),
    )
  );
}

/** The invariants every strategy keeps, whatever its limits (plain checks: vitest's matchers are slow on big histories). */
function checkCommon(input: readonly AgentMessage[], result: MemoryStrategyResult): void {
  const issues = findToolPairingIssues(result.messages);
  if (issues.length > 0) throw new Error(`pairing broken: ${JSON.stringify(issues.slice(0, 3))}`);
  // A leading system message (the system prompt, when a caller keeps it in the list) is always kept.
  if (input[0]?.role === "system" && result.messages[0] !== input[0])
    throw new Error("leading system message not kept");
  // Order-preserving subset.
  let pointer = 0;
  for (const message of result.messages) {
    while (pointer < input.length && !sameOrCut(input[pointer]!, message)) pointer++;
    if (pointer >= input.length) throw new Error(`message ${message.id} is not from the input, or out of order`);
    pointer++;
  }
  // Kept and dropped account for every input message exactly once; dropped are the stored objects.
  const inputSet = new Set(input);
  for (const message of result.dropped)
    if (!inputSet.has(message)) throw new Error(`dropped ${message.id} is not an input object`);
  const ids = [...result.messages, ...result.dropped].map((message) => message.id).sort();
  const expected = input.map((message) => message.id).sort();
  if (!isDeepStrictEqual(ids, expected)) throw new Error("kept + dropped do not account for the input exactly once");
  // The newest message is always sent.
  if (input.length > 0 && !sameOrCut(input.at(-1)!, result.messages.at(-1)!))
    throw new Error("newest message not sent");
  if (!(result.summary === undefined || typeof result.summary === "string")) throw new Error("bad summary");
}

function tokensOf(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, message) => sum + rawMessageTokens(message, "o200k_base"), 0);
}

/** Tokens of the smallest window a token budget may shrink to: the latest turn's user message and newest step. */
function minimalWindowTokens(input: readonly AgentMessage[], maxToolResultLength = 20_000): number {
  const pinned = input[0]?.role === "system" ? 1 : 0;
  const turns = groupTurns(input, pinned);
  const last = turns.at(-1)!;
  const steps = groupSteps(input, last);
  const sent = (index: number) => cutToolResult(input[index]!, maxToolResultLength);
  let tokens = pinned ? rawMessageTokens(input[0]!, "o200k_base") : 0;
  const add = (step: { start: number; end: number }) => {
    for (let index = step.start; index < step.end; index++) tokens += rawMessageTokens(sent(index), "o200k_base");
  };
  add(steps.at(-1)!);
  if (input[last.start]!.role === "user" && steps.length > 1) add(steps[0]!);
  return tokens;
}

function turnCount(messages: readonly AgentMessage[]): number {
  return groupTurns(messages, messages[0]?.role === "system" ? 1 : 0).length;
}

async function applyChecked(strategy: IMemoryStrategy, input: AgentMessage[], context = { sessionId: "s" }) {
  const before = structuredClone(input);
  const result = await strategy.apply(input, context);
  if (!isDeepStrictEqual(input, before)) throw new Error("the strategy changed its input");
  checkCommon(input, result);
  return result;
}

// These properties are about counted windows: load the tokenizer first, or a history that fits by
// its byte bound would be kept without counting and report no `tokens` (see
// window-before-tokenizer.test.ts for that path).
beforeAll(() => loadTokenizer());

describe("strategies over random histories", () => {
  it("full memory sends everything, oversized tool results cut like every strategy's", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryHistory({ maxTurns: 60 }), async (history) => {
        const result = await applyChecked(new FullMemory(), history);
        expect(result.messages).toEqual(history.map((message) => cutToolResult(message, 20_000)));
      }),
      { numRuns: 30 },
    );
  });

  it("sliding window keeps the last maxTurns turns (fewer by at most the prefix step)", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        async (history, maxTurns, stable) => {
          const strategy = new SlidingWindowMemory({ maxTurns, stablePrefix: stable });
          const result = await applyChecked(strategy, history);
          const kept = turnCount(result.messages);
          const total = turnCount(history);
          const step = stable ? Math.max(1, Math.floor(maxTurns / 4)) : 1;
          expect(kept).toBeLessThanOrEqual(maxTurns);
          expect(kept).toBeGreaterThanOrEqual(Math.min(total, maxTurns - step + 1));
          if (!stable) expect(kept).toBe(Math.min(total, maxTurns));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("token window keeps whole recent turns within the budget wherever it can", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        fc.constantFrom(50, 200, 1000, 4000, 20_000),
        fc.boolean(),
        async (history, maxTokens, stable) => {
          const strategy = new TokenWindowMemory({ maxTokens, stablePrefix: stable });
          const result = await applyChecked(strategy, history);
          const tokens = tokensOf(result.messages);
          expect(result.tokens).toBe(tokens);
          expect(result.budget).toBe(maxTokens);
          if (minimalWindowTokens(history) <= maxTokens) expect(tokens).toBeLessThanOrEqual(maxTokens);
          // Whole turns: apart from the latest, every kept turn is kept complete.
          const keptIds = new Set(result.messages.map((message) => message.id));
          const turns = groupTurns(history, history[0]?.role === "system" ? 1 : 0);
          for (const turn of turns.slice(0, -1)) {
            const inTurn = history.slice(turn.start, turn.end).filter((message) => keptIds.has(message.id)).length;
            expect([0, turn.end - turn.start]).toContain(inTurn);
          }
          // Without stable prefixes the window is maximal: one more turn would not fit.
          const latest = turns.at(-1)!;
          const latestWhole = history.slice(latest.start).every((message) => keptIds.has(message.id));
          if (!stable && latestWhole && result.dropped.length > 0 && tokens <= maxTokens) {
            const firstKept = history.findIndex((message) => keptIds.has(message.id));
            const previousTurn = turns.filter((turn) => turn.end <= firstKept).at(-1);
            if (previousTurn && firstKept === turns.find((turn) => turn.start === firstKept)?.start) {
              const extra = tokensOf(
                history.slice(previousTurn.start, previousTurn.end).map((message) => cutToolResult(message, 20_000)),
              );
              expect(tokens + extra).toBeGreaterThan(maxTokens);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("buffer memory keeps whole turns within maxMessages and maxTokens", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(undefined, 300, 3000),
        async (history, maxMessages, maxTokens) => {
          const strategy = new BufferMemory({ maxMessages, ...(maxTokens === undefined ? {} : { maxTokens }) });
          const result = await applyChecked(strategy, history);
          const latestTurn = groupTurns(history, history[0]?.role === "system" ? 1 : 0).at(-1)!;
          const pinned = history[0]?.role === "system" ? 1 : 0;
          if (result.messages.length - pinned > maxMessages) {
            // Only the latest turn alone may be longer than maxMessages.
            expect(result.messages.length).toBeLessThanOrEqual(latestTurn.end - latestTurn.start + pinned);
          }
          if (maxTokens !== undefined && minimalWindowTokens(history) <= maxTokens) {
            expect(tokensOf(result.messages)).toBeLessThanOrEqual(maxTokens);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("summary memory: pairing, subset plus one summary, budget, stored history untouched", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ maxTurns: 120 }),
        fc
          .integer({ min: 2, max: 30 })
          .chain((threshold) => fc.tuple(fc.constant(threshold), fc.integer({ min: 1, max: threshold - 1 }))),
        fc.constantFrom(500, 4000),
        fc.constantFrom("ok", "throw", "long"),
        fc.boolean(),
        async (history, [summarizeThreshold, recentMessages], maxTokens, behaviour, countTurns) => {
          const summarizer = new MockLanguageModel({
            responses: () => {
              if (behaviour === "throw") return { error: new Error("provider down") };
              if (behaviour === "long") return { text: "word ".repeat(5000) };
              return { text: "The user asked about the weather." };
            },
          });
          const store = new InMemoryStore();
          await store.setMessages("s", history);
          const storedBefore = structuredClone(await store.getMessages("s"));
          const errors: unknown[] = [];
          // Counting turns (the positional form's unit), recentMessages stands for recentTurns.
          const strategy = new SummaryMemory({
            summarizeThreshold,
            ...(countTurns ? { countTurns, recentTurns: recentMessages } : { recentMessages }),
            maxTokens,
            model: summarizer,
            maxSummaryTokens: 200,
          });
          const context = { sessionId: "s", store, onError: (error: unknown) => errors.push(error) };
          const result = await applyChecked(strategy, history, context as never);
          expect(isDeepStrictEqual(await store.getMessages("s"), storedBefore)).toBe(true);
          if (behaviour === "ok") {
            expect(errors).toEqual([]);
            expect(Boolean(result.summary)).toBe(summarizer.calls.length > 0);
          } else {
            expect(result.summary).toBeUndefined();
            expect(errors.length).toBe(summarizer.calls.length);
          }
          const summaryTokens = result.summary
            ? rawMessageTokens({ role: "user", content: result.summary }, "o200k_base") - 4
            : 0;
          const budget = Math.max(Math.floor(maxTokens / 2), maxTokens - summaryTokens);
          if (minimalWindowTokens(history) <= budget) expect(tokensOf(result.messages)).toBeLessThanOrEqual(budget);
          // Later applies on the same history extend the summary only while a backlog longer than
          // maxDigestLength remains, then reuse it: no new summariser call.
          if (behaviour === "ok") {
            let previous = result;
            for (let round = 0; round < 100; round++) {
              const calls = summarizer.calls.length;
              const again = await applyChecked(strategy, history, context as never);
              if (summarizer.calls.length === calls) {
                expect(again.summary).toBe(previous.summary);
                break;
              }
              expect(summarizer.calls.length).toBe(calls + 1);
              // Each extension covers more of the history than the record before it. (The number
              // of dropped messages may move either way: the window after the summary is refitted.)
              const records = await store.getSummaries("s");
              expect(records.length).toBeGreaterThanOrEqual(2);
              expect(records.at(-1)!.messageCount).toBeGreaterThan(records.at(-2)!.messageCount);
              previous = again;
            }
            const settled = summarizer.calls.length;
            await applyChecked(strategy, history, context as never);
            expect(summarizer.calls.length).toBe(settled);
          }
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
