// Prompt caching on the wire: where the agent's `cache_control` breakpoints land in Anthropic
// requests (official SDK against a loopback server that implements Anthropic's caching rule),
// never more than 4, the opt-outs, and the cache counts in usage from Anthropic and OpenAI (in
// generate and stream, summed over steps, on the trace's spans).
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { SummaryMemory } from "../../src/strategies/summary-memory";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import { AnthropicCacheServer, countCacheBreakpoints } from "../servers/anthropic-cache-server";
import type { RecordedRequest } from "../servers/fake-llm-server";
import { FakeLlmServer } from "../servers/fake-llm-server";
import { openaiCompletion, openaiStream, type ScriptedAnswer } from "../servers/wire-formats";
import { weather } from "./helpers";

const INSTRUCTIONS = "You are a careful assistant. ".repeat(20).trim();

let server: AnthropicCacheServer;
let script: ((request: RecordedRequest, index: number) => ScriptedAnswer) | undefined;
beforeEach(async () => {
  script = undefined;
  server = await AnthropicCacheServer.start({
    minCacheableTokens: 1,
    answer: (request, index) => script?.(request, index) ?? { text: `Answer ${index}.` },
  });
});
afterEach(async () => {
  await server.close();
});

const claude = (settings: { cacheControl?: boolean } = {}) =>
  createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url, ...settings })("claude-sonnet-4-5");

type WireBlock = { type?: string; cache_control?: unknown; [key: string]: unknown };
type WireBody = { tools?: WireBlock[]; system?: string | WireBlock[]; messages: { content: string | WireBlock[] }[] };

/** Where a request's breakpoints are: "tools[i]", "system[i]", "messages[i].content[j]". */
function breakpointsOf(body: WireBody): string[] {
  const marked = (block: WireBlock) => block.cache_control != null;
  const found: string[] = [];
  (body.tools ?? []).forEach((tool, index) => marked(tool) && found.push(`tools[${index}]`));
  if (Array.isArray(body.system))
    body.system.forEach((block, index) => marked(block) && found.push(`system[${index}]`));
  body.messages.forEach((message, index) => {
    if (Array.isArray(message.content))
      message.content.forEach(
        (block, blockIndex) => marked(block) && found.push(`messages[${index}].content[${blockIndex}]`),
      );
  });
  return found;
}

describe("Anthropic cache_control breakpoints placed by the agent", () => {
  it("marks the instructions, the facts block, the previous request's end and the last message: 4, all read back", async () => {
    // Turn 1: the model saves a fact (step 1), then answers (step 2). Turn 2: it answers.
    script = (_request, index) =>
      index === 0
        ? { toolCalls: [{ id: "toolu_1", name: "remember_fact", arguments: { key: "language", value: "TypeScript" } }] }
        : { text: `Answer ${index}.` };
    const agent = new Agent({
      model: claude(),
      systemPrompt: INSTRUCTIONS,
      enableMemoryTools: true,
      memory: "sliding_window",
      memoryStore: new InMemoryStore(),
      sessionId: "cache-1",
    });
    const first = await agent.run("I prefer TypeScript.");
    const second = await agent.run("Which language do I prefer?");

    const [step1, step2, turn2] = server.requests.map((request) => request.body);
    // Turn 1, step 1: no facts yet; the instructions and the user message.
    expect(step1.system).toEqual([{ type: "text", text: INSTRUCTIONS, cache_control: { type: "ephemeral" } }]);
    expect(breakpointsOf(step1)).toEqual(["system[0]", "messages[0].content[0]"]);
    // Step 2: the facts block is its own cached block; the user message (step 1's end) and the tool result.
    expect(step2.system).toHaveLength(2);
    expect(step2.system[0]).toEqual(step1.system[0]);
    expect(step2.system[1].text).toContain("TypeScript");
    expect(step2.system[1].cache_control).toEqual({ type: "ephemeral" });
    expect(breakpointsOf(step2)).toEqual([
      "system[0]",
      "system[1]",
      "messages[0].content[0]",
      "messages[2].content[0]",
    ]);
    expect(step2.messages[2].content[0].type).toBe("tool_result");
    // Turn 2: the end of turn 1's last request (its tool result) and the new user message.
    expect(breakpointsOf(turn2)).toEqual([
      "system[0]",
      "system[1]",
      "messages[2].content[0]",
      "messages[4].content[0]",
    ]);
    expect(turn2.messages[4].content[0]).toMatchObject({ type: "text", text: "Which language do I prefer?" });
    // No tool breakpoint: the system prompt's covers the tools before it.
    expect(turn2.tools.some((tool: WireBlock) => tool.cache_control)).toBe(false);

    // What was cached is read back: step 2 reads step 1's prefix, turn 2 reads step 2's whole request.
    const [account1, account2, account3] = server.accounts;
    expect(account1!.cacheReadTokens).toBe(0);
    expect(account2!.cacheReadTokens).toBeGreaterThan(0);
    expect(account3!.cacheReadTokens).toBe(account2!.cacheReadTokens + account2!.cacheWriteTokens);
    // Usage: cache reads and writes, summed over a run's steps, inside inputTokens.
    expect(first.usage.cachedInputTokens).toBe(account1!.cacheReadTokens + account2!.cacheReadTokens);
    expect(first.usage.cacheCreationInputTokens).toBe(account1!.cacheWriteTokens + account2!.cacheWriteTokens);
    expect(first.usage.inputTokens).toBe(account1!.inputTokens + account2!.inputTokens);
    expect(first.steps.map((step) => step.usage.cachedInputTokens)).toEqual([undefined, account2!.cacheReadTokens]);
    expect(second.usage).toMatchObject({
      inputTokens: account3!.inputTokens,
      cachedInputTokens: account3!.cacheReadTokens,
      cacheCreationInputTokens: account3!.cacheWriteTokens,
    });
  });

  it("never sends more than 4 breakpoints over a long conversation with tools, facts and a sliding window", async () => {
    // Every third request calls two tools; the window slides in steps (stablePrefix).
    script = (_request, index) =>
      index % 3 === 1
        ? {
            toolCalls: [
              { id: `toolu_${index}a`, name: "weather", arguments: { city: "Oslo" } },
              { id: `toolu_${index}b`, name: "remember_fact", arguments: { key: `k${index}`, value: "v" } },
            ],
          }
        : { text: `Answer ${index}.` };
    const agent = new Agent({
      model: claude(),
      systemPrompt: INSTRUCTIONS,
      enableMemoryTools: true,
      tools: { weather },
      memory: "sliding_window",
      maxMessages: 4,
      sessionId: "cache-long",
    });
    for (let turn = 0; turn < 12; turn++) await agent.run(`Question ${turn}`);

    const counts = server.requests.map((request) => countCacheBreakpoints(request.body));
    expect(server.requests.length).toBeGreaterThan(12);
    expect(Math.max(...counts)).toBe(4);
    expect(counts.every((count) => count >= 2 && count <= 4)).toBe(true);
    // The loopback server refuses more than 4, as the API does: every request was answered.
    expect(server.accounts).toHaveLength(server.requests.length);
    expect(server.totals().cacheReadTokens).toBeGreaterThan(0);
  });

  it("streams with the same breakpoints and reports the cache counts from message_start", async () => {
    const agent = new Agent({ model: claude(), systemPrompt: INSTRUCTIONS, sessionId: "cache-stream" });
    await agent.run("First");
    const stream = agent.stream("Second");
    for await (const _delta of stream.textStream);
    const result = await stream.response;

    const body = server.requests[1]!.body;
    expect(body.stream).toBe(true);
    expect(breakpointsOf(body)).toEqual(["system[0]", "messages[0].content[0]", "messages[2].content[0]"]);
    const account = server.accounts[1]!;
    expect(account.cacheReadTokens).toBeGreaterThan(0);
    expect(result.usage).toMatchObject({
      inputTokens: account.inputTokens,
      cachedInputTokens: account.cacheReadTokens,
      cacheCreationInputTokens: account.cacheWriteTokens,
    });
  });

  it("marks the last tool definition when there is no system prompt", async () => {
    const agent = new Agent({ model: claude(), tools: { weather }, sessionId: "cache-tools" });
    await agent.run("Hi");
    const body = server.requests[0]!.body;
    expect(body.system).toBeUndefined();
    expect(breakpointsOf(body)).toEqual(["tools[0]", "messages[0].content[0]"]);
  });

  it("with summary memory, caches the instructions and keeps the summary after them, uncached but stable", async () => {
    const summariser = new MockLanguageModel({ responses: () => ({ text: "The user asked questions 0 to 3." }) });
    const agent = new Agent({
      model: claude(),
      systemPrompt: INSTRUCTIONS,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summariser }),
      sessionId: "cache-summary",
    });
    for (let turn = 0; turn < 4; turn++) await agent.run(`Question ${turn}`);
    const last = server.requests.at(-1)!.body;
    expect(last.system[0]).toEqual({ type: "text", text: INSTRUCTIONS, cache_control: { type: "ephemeral" } });
    expect(last.system[1].text).toContain("<conversation_summary>");
    expect(last.system[1].cache_control).toBeUndefined();
    expect(countCacheBreakpoints(last)).toBeLessThanOrEqual(4);
    expect(breakpointsOf(last).at(-1)).toBe(`messages[${last.messages.length - 1}].content[0]`);
  });

  it("sends no breakpoint with the agent's cacheControl: false, nor with the provider's", async () => {
    const off = new Agent({ model: claude(), systemPrompt: INSTRUCTIONS, tools: { weather }, cacheControl: false });
    const result = await off.run("Hi");
    const offByModel = new Agent({ model: claude({ cacheControl: false }), systemPrompt: INSTRUCTIONS });
    await offByModel.run("Hi");

    for (const request of server.requests) {
      expect(request.body.system).toBe(INSTRUCTIONS);
      expect(countCacheBreakpoints(request.body)).toBe(0);
    }
    // Nothing read or written: the usage has no cache counts.
    expect(result.usage).toEqual({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      totalTokens: expect.any(Number),
    });
    expect(server.totals()).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(() => new Agent({ model: claude(), cacheControl: "no" as never })).toThrow(
      /cacheControl must be true or false/,
    );
  });

  it("puts the cache counts on the chat and agent spans", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
    const agent = new Agent({
      model: claude(),
      systemPrompt: INSTRUCTIONS,
      telemetry: { tracer },
      sessionId: "traced",
    });
    await agent.run("First");
    await agent.run("Second");
    const account = server.accounts[1]!;
    const spans = exporter.getFinishedSpans();
    const chat = spans.filter((span) => span.name.startsWith("chat ")).at(-1)!;
    const run = spans.filter((span) => span.name.startsWith("invoke_agent")).at(-1)!;
    for (const span of [chat, run]) {
      expect(span.attributes["gen_ai.usage.input_tokens"]).toBe(account.inputTokens);
      expect(span.attributes["gen_ai.usage.cache_read.input_tokens"]).toBe(account.cacheReadTokens);
      expect(span.attributes["gen_ai.usage.cache_creation.input_tokens"]).toBe(account.cacheWriteTokens);
    }
    expect(account.cacheReadTokens).toBeGreaterThan(0);
  });
});

describe("OpenAI's automatic prompt cache", () => {
  let openai: FakeLlmServer;
  beforeEach(async () => {
    openai = await FakeLlmServer.start();
  });
  afterEach(async () => {
    await openai.close();
  });

  it("reads prompt_tokens_details.cached_tokens in generate and stream, summed over steps", async () => {
    openai.enqueue(
      openaiCompletion({
        toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }],
        usage: { inputTokens: 1500, outputTokens: 10, cacheReadTokens: 1024 },
      }),
      openaiCompletion({ text: "4°C in Oslo.", usage: { inputTokens: 1600, outputTokens: 6, cacheReadTokens: 1536 } }),
      openaiStream({ text: "Still 4°C.", usage: { inputTokens: 1700, outputTokens: 4, cacheReadTokens: 1664 } }),
    );
    const model = createOpenAI({ apiKey: "sk-test", baseURL: `${openai.url}/v1` })("gpt-4o-mini");
    const agent = new Agent({ model, systemPrompt: INSTRUCTIONS, tools: { weather }, sessionId: "openai-cache" });
    const result = await agent.run("Weather in Oslo?");
    const stream = agent.stream("And now?");
    for await (const _delta of stream.textStream);
    const streamed = await stream.response;

    expect(result.usage).toEqual({ inputTokens: 3100, outputTokens: 16, totalTokens: 3116, cachedInputTokens: 2560 });
    expect(streamed.usage).toEqual({ inputTokens: 1700, outputTokens: 4, totalTokens: 1704, cachedInputTokens: 1664 });
    // OpenAI caches by itself: nothing of Anthropic's cache_control reaches it.
    expect(JSON.stringify(openai.requests.map((request) => request.body))).not.toContain("cache_control");
  });
});
