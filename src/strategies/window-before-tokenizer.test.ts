// Until the tokenizer is loaded, a token window keeps a history that fits its budget even by the
// UTF-8 byte bound without counting (no cold load of ~300 ms for a short conversation). This file
// runs in a fresh module state (vitest isolates files), so the encoding starts unloaded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { loadTokenizer } from "../tokens/estimate-tokens";
import { messageTokenBound, rawMessageTokens } from "../tokens/token-count-cache";
import { isEncodingLoaded } from "../tokens/tokenizer";
import { arbitraryHistory } from "./__fixtures__/arbitrary-history";
import { cutToolResult } from "./cut-tool-result";
import { TokenWindowMemory } from "./token-window";

const BUDGET = 4000;
const boundOf = (history: readonly AgentMessage[]) =>
  history.reduce((sum, message) => sum + messageTokenBound(cutToolResult(message, 20_000)), 0);

describe("token windows before the tokenizer is loaded", () => {
  it("keep a history that fits by its byte bound without loading the tokenizer, choosing the window counting would", async () => {
    const histories = fc
      .sample(arbitraryHistory(), { numRuns: 400, seed: 19 })
      .filter((history) => boundOf(history) <= BUDGET);
    expect(histories.length).toBeGreaterThan(20);
    const strategy = () => new TokenWindowMemory({ maxTokens: BUDGET });
    const before = histories.map((history) => strategy().apply(history, { sessionId: "s" }));
    expect(isEncodingLoaded("o200k_base")).toBe(false);
    for (const result of before) expect(result.tokens).toBeUndefined();

    await loadTokenizer();
    const after = histories.map((history) => strategy().apply(history, { sessionId: "s" }));
    expect(after.map((result) => result.messages)).toEqual(before.map((result) => result.messages));
    expect(after.map((result) => result.dropped)).toEqual(before.map((result) => result.dropped));
    for (const result of after) expect(result.tokens).toBeTypeOf("number");
  });

  it("bounds every message's count: tokens never exceed the bound, in either encoding", async () => {
    await loadTokenizer();
    await loadTokenizer({ model: "gpt-4" });
    const message = fc.oneof(
      fc.record({
        role: fc.constantFrom("user" as const, "system" as const),
        content: fc.string({ unit: "binary", maxLength: 200 }),
      }),
      fc.record({
        role: fc.constant("assistant" as const),
        content: fc.string({ unit: "grapheme", maxLength: 100 }),
        toolCalls: fc.array(
          fc.record({
            id: fc.string({ minLength: 1 }),
            name: fc.string({ minLength: 1, maxLength: 20 }),
            arguments: fc.dictionary(fc.string(), fc.string({ unit: "binary" })),
          }),
          { maxLength: 2 },
        ),
      }),
      fc.record({
        role: fc.constant("tool" as const),
        toolCallId: fc.constant("c"),
        name: fc.string({ unit: "binary-ascii", minLength: 1 }),
        content: fc.string({ unit: "binary", maxLength: 200 }),
      }),
    );
    fc.assert(
      fc.property(message, (candidate) => {
        const agentMessage = candidate as AgentMessage;
        expect(rawMessageTokens(agentMessage, "o200k_base")).toBeLessThanOrEqual(messageTokenBound(agentMessage));
        expect(rawMessageTokens(agentMessage, "cl100k_base")).toBeLessThanOrEqual(messageTokenBound(agentMessage));
      }),
      { numRuns: 500 },
    );
  });
});
