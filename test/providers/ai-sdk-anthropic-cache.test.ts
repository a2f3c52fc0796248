// Prompt caching through an AI SDK Anthropic model: a real `@ai-sdk/anthropic` model (3, spec v3;
// and 2, spec v2, installed as `@ai-sdk/anthropic-v5` by @mastra/core) given as the agent's
// `model`, against the loopback server that implements Anthropic's caching rule. The agent's
// breakpoints reach the wire as `cache_control` at the same places, and as many, as the built-in
// `anthropic` provider puts them for the same conversation: both run side by side, one server each.
import { createAnthropic as createAISDKAnthropic } from "@ai-sdk/anthropic";
import { createAnthropic as createAISDKAnthropicV2 } from "@ai-sdk/anthropic-v5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import type { AgentOptions } from "../../src/agent/agent-options";
import { fromAISDK } from "../../src/models/ai-sdk/from-ai-sdk";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { LanguageModelUsage } from "../../src/models/language-model";
import { AnthropicCacheServer, countCacheBreakpoints, type CacheAccount } from "../servers/anthropic-cache-server";
import type { RecordedRequest } from "../servers/fake-llm-server";
import type { ScriptedAnswer } from "../servers/wire-formats";
import { weather } from "./helpers";

const MODEL = "claude-sonnet-4-5";
const INSTRUCTIONS = "You are a careful assistant. ".repeat(20).trim();

/** Turn 1 saves a fact, then answers; turn 2 calls two tools at once, then answers; turns 3 and 4 answer. */
function script(_request: RecordedRequest, index: number): ScriptedAnswer {
  if (index === 0)
    return {
      toolCalls: [{ id: "toolu_1", name: "remember_fact", arguments: { key: "language", value: "TypeScript" } }],
    };
  if (index === 2)
    return {
      toolCalls: [
        { id: "toolu_2", name: "weather", arguments: { city: "Oslo" } },
        { id: "toolu_3", name: "remember_fact", arguments: { key: "city", value: "Oslo" } },
      ],
    };
  return { text: `Answer ${index}.` };
}

const INPUTS = ["I prefer TypeScript.", "Weather in Oslo? I live there.", "Thanks.", "Anything else?"];

let builtIn: AnthropicCacheServer;
let aiSDK: AnthropicCacheServer;
beforeEach(async () => {
  builtIn = await AnthropicCacheServer.start({ minCacheableTokens: 1, answer: script });
  aiSDK = await AnthropicCacheServer.start({ minCacheableTokens: 1, answer: script });
});
afterEach(async () => {
  await Promise.all([builtIn.close(), aiSDK.close()]);
});

type WireBlock = { type?: string; cache_control?: unknown; [key: string]: unknown };
type WireBody = { tools?: WireBlock[]; system?: string | WireBlock[]; messages: { content: string | WireBlock[] }[] };

/** Each breakpoint of a request: where it is and what it marks (a block's type and text, tool id or name). */
function breakpointsOf(body: WireBody): string[] {
  const found: string[] = [];
  const add = (where: string, block: WireBlock) => {
    if (block.cache_control == null) return;
    expect(block.cache_control).toEqual({ type: "ephemeral" });
    const what = block.type === "tool_result" ? block.tool_use_id : (block.text ?? block.name ?? block.id);
    found.push(`${where} ${block.type ?? "tool"} ${JSON.stringify(what)}`);
  };
  (body.tools ?? []).forEach((tool, index) => add(`tools[${index}]`, tool));
  if (Array.isArray(body.system)) body.system.forEach((block, index) => add(`system[${index}]`, block));
  body.messages.forEach((message, index) => {
    if (Array.isArray(message.content))
      message.content.forEach((block, blockIndex) => add(`messages[${index}].content[${blockIndex}]`, block));
  });
  return found;
}

/** The conversation of `INPUTS` on one agent, streamed or not; the usage of each run. */
async function converse(model: AgentOptions["model"], options: { stream: boolean } & Partial<AgentOptions>) {
  const { stream, ...agentOptions } = options;
  const agent = new Agent({
    model,
    systemPrompt: INSTRUCTIONS,
    enableMemoryTools: true,
    tools: { weather },
    memory: "sliding_window",
    sessionId: "cache-side-by-side",
    maxRetries: 0,
    ...agentOptions,
  });
  const usages: LanguageModelUsage[] = [];
  for (const input of INPUTS) {
    if (stream) {
      const result = agent.stream(input);
      for await (const _delta of result.textStream);
      usages.push((await result.response).usage);
    } else {
      usages.push((await agent.run(input)).usage);
    }
  }
  return usages;
}

const builtInModel = () => createAnthropic({ apiKey: "sk-ant-test", baseURL: builtIn.url })(MODEL);
const aiSDKModels = {
  "@ai-sdk/anthropic 3 (spec v3)": () => createAISDKAnthropic({ apiKey: "test", baseURL: `${aiSDK.url}/v1` })(MODEL),
  "@ai-sdk/anthropic 2 (spec v2)": () => createAISDKAnthropicV2({ apiKey: "test", baseURL: `${aiSDK.url}/v1` })(MODEL),
};

/** The run's usage is what the server counted over the run's requests. */
function expectUsageOf(usages: LanguageModelUsage[], accounts: CacheAccount[]) {
  const requestsPerRun = [2, 2, 1, 1];
  let next = 0;
  usages.forEach((usage, run) => {
    const runAccounts = accounts.slice(next, next + requestsPerRun[run]!);
    next += requestsPerRun[run]!;
    const read = runAccounts.reduce((sum, account) => sum + account.cacheReadTokens, 0);
    const written = runAccounts.reduce((sum, account) => sum + account.cacheWriteTokens, 0);
    expect(usage.inputTokens).toBe(runAccounts.reduce((sum, account) => sum + account.inputTokens, 0));
    expect(usage.cachedInputTokens).toBe(read > 0 ? read : undefined);
    expect(usage.cacheCreationInputTokens).toBe(written > 0 ? written : undefined);
  });
  expect(next).toBe(accounts.length);
}

describe("cache breakpoints through an AI SDK Anthropic model, side by side with the built-in provider", () => {
  for (const [name, aiSDKModel] of Object.entries(aiSDKModels)) {
    for (const stream of [false, true]) {
      it(`${name}, ${stream ? "streamed" : "generated"}: the same cache_control blocks, request by request, and the cache counts in usage`, async () => {
        await converse(builtInModel(), { stream });
        const usages = await converse(aiSDKModel(), { stream });

        const expected = builtIn.requests.map((request) => breakpointsOf(request.body));
        const sent = aiSDK.requests.map((request) => breakpointsOf(request.body));
        expect(sent).toHaveLength(6);
        expect(sent).toEqual(expected);
        // Instructions and facts, the previous request's end, the last message: 4, never more.
        expect(sent.map((request) => request.length)).toEqual([2, 4, 4, 4, 4, 4]);
        expect(sent[3]).toEqual([
          `system[0] text ${JSON.stringify(INSTRUCTIONS)}`,
          expect.stringMatching(/^system\[1\] text "<user_facts>.*Oslo.*TypeScript/),
          'messages[4].content[0] text "Weather in Oslo? I live there."',
          'messages[6].content[1] tool_result "toolu_3"',
        ]);
        // The server answered every request (more than 4 would be a 400) and read the cached prefixes back.
        expect(aiSDK.accounts).toHaveLength(6);
        expect(aiSDK.accounts.slice(1).every((account) => account.cacheReadTokens > 0)).toBe(true);
        expectUsageOf(usages, aiSDK.accounts);
      });
    }
  }

  it("marks the last tool when there is no system prompt, as the built-in provider does", async () => {
    await converse(builtInModel(), { stream: false, systemPrompt: undefined, enableMemoryTools: false });
    await converse(aiSDKModels["@ai-sdk/anthropic 3 (spec v3)"](), {
      stream: false,
      systemPrompt: undefined,
      enableMemoryTools: false,
    });
    const sent = aiSDK.requests.map((request) => breakpointsOf(request.body));
    expect(sent).toEqual(builtIn.requests.map((request) => breakpointsOf(request.body)));
    expect(sent[0]).toEqual(['tools[0] tool "weather"', 'messages[0].content[0] text "I prefer TypeScript."']);
  });

  it("sends none with the agent's cacheControl: false, nor with fromAISDK's", async () => {
    const model = aiSDKModels["@ai-sdk/anthropic 3 (spec v3)"];
    await converse(model(), { stream: false, cacheControl: false });
    await converse(fromAISDK(model(), { cacheControl: false }), { stream: true, sessionId: "off-by-model" });
    // 6 requests, then 4 (the script answers the second conversation with text only).
    expect(aiSDK.requests).toHaveLength(10);
    for (const request of aiSDK.requests) {
      expect(countCacheBreakpoints(request.body)).toBe(0);
      expect(request.body.system).toEqual([{ type: "text", text: expect.stringContaining(INSTRUCTIONS) }]);
    }
    expect(aiSDK.totals()).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
