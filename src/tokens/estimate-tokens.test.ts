import fc from "fast-check";
import { encode as encodeO200k, encodeChat } from "gpt-tokenizer/encoding/o200k_base";
import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countChatCompletionTokens } from "gpt-tokenizer/model/gpt-4o";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { estimateMessagesTokens, estimateTokens } from "./estimate-tokens";
import { configureTokenCountCache, tokenCountCacheStats } from "./token-count-cache";
import { NON_OPENAI_TOKEN_FACTOR, tokenizerFor } from "./tokenizer";
import { trimToTokenBudget } from "../strategies/trim-to-token-budget";
import { SETTLED_SAMPLE_EVERY, SETTLED_SAMPLES, TokenCalibration } from "./token-calibration";

const plain = { disallowedSpecial: new Set<string>() };

describe("estimateTokens", () => {
  it("equals gpt-tokenizer's encode(text).length (o200k without a model or for OpenAI models)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), (text) => {
        expect(estimateTokens(text)).toBe(encodeO200k(text).length);
        expect(estimateTokens(text, { model: "openai/gpt-4o" })).toBe(encodeO200k(text).length);
        expect(estimateTokens(text, { model: "gpt-4" })).toBe(encodeCl100k(text).length);
      }),
      { numRuns: 200 },
    );
    expect(estimateTokens("")).toBe(0);
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(2000);
    expect(estimateTokens(long)).toBe(encodeO200k(long).length);
  });

  it("counts special tokens inside text as plain text instead of throwing", () => {
    const text = "before <|endoftext|> after <|im_start|>";
    expect(() => encodeO200k(text)).toThrow();
    expect(estimateTokens(text)).toBe(encodeO200k(text, plain).length);
    expect(estimateTokens(text)).toBeGreaterThan(4);
  });

  it("picks the encoding by model and applies the safety factor to other models", () => {
    for (const model of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1",
      "gpt-5",
      "o1",
      "o3-mini",
      "o4-mini",
      "openai/gpt-4.1-nano",
    ]) {
      expect(tokenizerFor(model)).toMatchObject({ encoding: "o200k_base", factor: 1 });
    }
    for (const model of ["gpt-4", "gpt-4-turbo", "gpt-4-0613", "gpt-3.5-turbo", "openai/gpt-3.5-turbo-0125"]) {
      expect(tokenizerFor(model)).toMatchObject({ encoding: "cl100k_base", factor: 1 });
    }
    for (const model of ["anthropic/claude-sonnet-4-5", "llama-3.1-70b", { provider: "mock", modelId: "mock-model" }]) {
      expect(tokenizerFor(model)).toMatchObject({ encoding: "o200k_base", factor: NON_OPENAI_TOKEN_FACTOR });
    }
    const text = "Hello there, how are you doing today?";
    expect(estimateTokens(text, { model: "anthropic/claude-sonnet-4-5" })).toBe(
      Math.ceil(encodeO200k(text).length * NON_OPENAI_TOKEN_FACTOR),
    );
  });
});

describe("estimateMessagesTokens", () => {
  it("equals gpt-tokenizer's chat encoding for plain messages (4 per message + 3 reply priming)", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "Hi, remember that I prefer TypeScript." },
      { role: "assistant", content: "Noted: TypeScript it is." },
      { role: "user", content: "What did I say?" },
    ];
    const system = "You are helpful.";
    const chat = [
      { role: "system" as const, content: system },
      ...messages.map((message) => ({ role: message.role, content: message.content as string })),
    ];
    expect(estimateMessagesTokens(messages, { model: "gpt-4o", system })).toBe(encodeChat(chat, "gpt-4o").length);
  });

  it("is within +0–25 % of the provider-style count for a request with tools", () => {
    const tools = [
      {
        name: "get_weather",
        description: "Current weather in a city",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name" },
            unit: { type: "string", enum: ["c", "f"] },
          },
          required: ["city"],
        },
      },
    ];
    const messages: AgentMessage[] = [
      { role: "user", content: "What is the weather in Tokyo and should I bring an umbrella?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Tokyo", unit: "c" } }],
      },
      { role: "tool", toolCallId: "c1", name: "get_weather", content: '{"city":"Tokyo","temperature":22,"rain":0.7}' },
      { role: "assistant", content: "It is 22°C in Tokyo with a 70% chance of rain: bring an umbrella." },
    ];
    const system = "You are a helpful assistant.";
    const provider = countChatCompletionTokens!({
      messages: [
        { role: "system", content: system },
        { role: "user", content: messages[0]!.content as string },
        {
          role: "assistant",
          content: "",
          function_call: { name: "get_weather", arguments: JSON.stringify({ city: "Tokyo", unit: "c" }) },
        },
        { role: "function", name: "get_weather", content: messages[2]!.content as string },
        { role: "assistant", content: messages[3]!.content as string },
      ],
      functions: tools as never,
    });
    const ours = estimateMessagesTokens(messages, { model: "gpt-4o", system, tools });
    expect(ours / provider).toBeGreaterThanOrEqual(1);
    expect(ours / provider).toBeLessThanOrEqual(1.25);
    // Tool schemas and the system prompt are counted.
    expect(ours).toBeGreaterThan(estimateMessagesTokens(messages, { model: "gpt-4o" }) + estimateTokens(system));
  });

  it("counts each message once: by object, and by id for fresh copies of stored messages", () => {
    configureTokenCountCache({ clear: true });
    const history: AgentMessage[] = Array.from({ length: 50 }, (_, index) => ({
      id: `cache-${index}`,
      role: index % 2 ? "assistant" : "user",
      content: `message ${index}`,
    }));
    const first = estimateMessagesTokens(history);
    expect(tokenCountCacheStats().misses).toBe(50);
    expect(estimateMessagesTokens(history)).toBe(first);
    expect(estimateMessagesTokens(structuredClone(history))).toBe(first); // a store read gives new objects
    expect(tokenCountCacheStats().misses).toBe(50);
    expect(tokenCountCacheStats().hits).toBe(100);
    // A different content under the same id (never happens for stored messages) is not confused.
    const changed = { ...history[0]!, content: "a longer different message" };
    estimateMessagesTokens([changed]);
    expect(tokenCountCacheStats().misses).toBe(51);
  });
});

describe("trimToTokenBudget", () => {
  const history: AgentMessage[] = [
    { id: "u1", role: "user", content: "first question ".repeat(20) },
    {
      id: "a1",
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "c1", name: "search", arguments: { q: "x" } },
        { id: "c2", name: "search", arguments: { q: "y" } },
      ],
    },
    { id: "t1", role: "tool", toolCallId: "c1", name: "search", content: "result one ".repeat(30) },
    { id: "t2", role: "tool", toolCallId: "c2", name: "search", content: "result two ".repeat(30) },
    { id: "a2", role: "assistant", content: "first answer" },
    { id: "u2", role: "user", content: "second question" },
    { id: "a3", role: "assistant", content: "second answer" },
  ];

  it("keeps the newest whole turns that fit", () => {
    const tokensOfSecondTurn = estimateMessagesTokens(history.slice(5)) - 3;
    expect(trimToTokenBudget(history, tokensOfSecondTurn).map((message) => message.id)).toEqual(["u2", "a3"]);
    expect(trimToTokenBudget(history, tokensOfSecondTurn - 1).map((message) => message.id)).toEqual(["u2", "a3"]); // over budget: latest turn still sent
    expect(trimToTokenBudget(history, 100_000)).toEqual(history);
  });

  it("repairs a broken history before trimming, so the result keeps the pairing rule", () => {
    const broken: AgentMessage[] = [
      { id: "orphan", role: "tool", toolCallId: "nope", name: "search", content: "orphan" },
      ...history.slice(0, 3), // c2 never answered
      { id: "u3", role: "user", content: "next" },
    ];
    const trimmed = trimToTokenBudget(broken, 100_000);
    expect(findToolPairingIssues(trimmed)).toEqual([]);
    expect(trimmed.some((message) => message.id === "orphan")).toBe(false);
    expect(broken).toHaveLength(5); // input untouched
  });
});

describe("TokenCalibration", () => {
  it("learns the provider/estimate ratio per model, smoothed and clamped", () => {
    const calibration = new TokenCalibration();
    const model = { provider: "anthropic", modelId: "claude" };
    expect(calibration.ratio(model)).toBeUndefined();
    calibration.record(model, 100, 120);
    expect(calibration.ratio(model)).toBeCloseTo(1.2);
    calibration.record(model, 100, 110);
    expect(calibration.ratio(model)).toBeCloseTo(1.15);
    calibration.record(model, 100, 10_000); // clamped to 2
    expect(calibration.ratio(model)!).toBeLessThan(1.5);
    calibration.record(model, 0, 50); // ignored
    expect(calibration.ratio({ provider: "openai", modelId: "gpt-4o" })).toBeUndefined();
  });

  it("samples every request until the ratio settles, then one request in SETTLED_SAMPLE_EVERY", () => {
    const calibration = new TokenCalibration();
    const model = { provider: "anthropic", modelId: "claude-settling" };
    for (let sample = 0; sample < SETTLED_SAMPLES; sample++) {
      expect(calibration.wants(model)).toBe(true);
      calibration.record(model, 100, 120);
    }
    const wanted = Array.from({ length: SETTLED_SAMPLE_EVERY * 3 }, () => calibration.wants(model));
    expect(wanted.filter(Boolean)).toHaveLength(3);
    expect(calibration.wants({ provider: "anthropic", modelId: "other" })).toBe(true);
  });
});
