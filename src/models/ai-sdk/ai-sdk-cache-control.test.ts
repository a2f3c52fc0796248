import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { AgentMessage } from "../../messages/agent-message";
import { applyAISDKCacheBreakpoints, readsAnthropicCacheControl } from "./ai-sdk-cache-control";
import { convertAISDKUsage } from "./ai-sdk-result";
import type { AISDKCallOptions } from "./ai-sdk-types";
import { convertToAISDKPromptParts, convertToAISDKTools } from "./convert-to-ai-sdk-prompt";
import { fromAISDK } from "./from-ai-sdk";

// The AI SDK adapter's cache breakpoints as call options (the wire side, side by side with the
// built-in provider: test/providers/ai-sdk-anthropic-cache.test.ts).

const cache = { cacheControl: { type: "ephemeral" } };
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function callOptions(system: string | undefined, messages: AgentMessage[], extra: Partial<AISDKCallOptions> = {}) {
  const { prompt, lastParts } = convertToAISDKPromptParts(system, messages);
  const options: AISDKCallOptions = {
    prompt,
    tools: convertToAISDKTools([{ name: "weather", parameters: { type: "object" } }]),
    ...extra,
  };
  return { options, lastParts };
}

/** Where `anthropic.cacheControl` is in the call options: "prompt[i]" (a system message), "prompt[i].content[j]", "tools[i]". */
function markers(options: AISDKCallOptions): string[] {
  const found: string[] = [];
  const marked = (value: object) =>
    (value as { providerOptions?: Record<string, Record<string, unknown>> }).providerOptions?.anthropic?.cacheControl !=
    null;
  options.prompt.forEach((message, index) => {
    if (typeof message.content === "string") {
      if (marked(message)) found.push(`prompt[${index}]`);
    } else
      message.content.forEach(
        (part, partIndex) => marked(part) && found.push(`prompt[${index}].content[${partIndex}]`),
      );
  });
  (options.tools ?? []).forEach((tool, index) => marked(tool) && found.push(`tools[${index}]`));
  return found;
}

describe("readsAnthropicCacheControl", () => {
  it("knows @ai-sdk/anthropic's models and Vertex's and Bedrock's Anthropic models, no others", () => {
    for (const provider of ["anthropic.messages", "vertex.anthropic.messages", "bedrock.anthropic.messages"])
      expect(readsAnthropicCacheControl(provider)).toBe(true);
    for (const provider of ["openai.chat", "openai.responses", "amazon-bedrock", "google.generative-ai", "gateway"])
      expect(readsAnthropicCacheControl(provider)).toBe(false);
  });
});

describe("applyAISDKCacheBreakpoints", () => {
  it("cuts the system prompt into system messages at its breakpoints and marks the messages' last parts", () => {
    const { options, lastParts } = callOptions("Instructions.\n\nFacts.\n\nRecalled.", [
      { role: "user", content: "one" },
      { role: "assistant", content: "", toolCalls: [{ id: "a", name: "weather", arguments: {} }] },
      { role: "tool", toolCallId: "a", name: "weather", content: "4°C" },
      { role: "user", content: "two" },
    ]);
    applyAISDKCacheBreakpoints(
      options,
      options.prompt[0]!.content as string,
      { system: [13, 21], messages: [2, 3] },
      lastParts,
    );
    expect(options.prompt.slice(0, 3)).toEqual([
      { role: "system", content: "Instructions.", providerOptions: { anthropic: cache } },
      { role: "system", content: "Facts.", providerOptions: { anthropic: cache } },
      { role: "system", content: "Recalled." },
    ]);
    // The tool result (in its tool message) and the last user message; the tools are covered by the system prompt's.
    expect(markers(options)).toEqual(["prompt[0]", "prompt[1]", "prompt[5].content[0]", "prompt[6].content[0]"]);
  });

  it("merges into the provider options a part already has, without touching the stored message", () => {
    const providerOptions = { anthropic: { title: "Chart" }, other: { keep: true } };
    const message: AgentMessage = {
      role: "user",
      content: [
        { type: "text", text: "Look:" },
        { type: "image", image: PNG, mediaType: "image/png", providerOptions },
        { type: "text", text: "" },
      ],
    };
    const { options, lastParts } = callOptions(undefined, [message]);
    applyAISDKCacheBreakpoints(options, undefined, { system: [], messages: [0] }, lastParts);
    // The empty text makes no block: the image is the message's last block.
    const [, image] = (options.prompt[0] as { content: { providerOptions?: unknown }[] }).content;
    expect(image!.providerOptions).toEqual({ anthropic: { title: "Chart", ...cache }, other: { keep: true } });
    expect(providerOptions).toEqual({ anthropic: { title: "Chart" }, other: { keep: true } });
    // No system prompt: the last tool takes the instructions' breakpoint.
    expect(markers(options)).toEqual(["prompt[0].content[1]", "tools[0]"]);
  });

  it("counts the caller's own breakpoints against the 4 and never marks a part twice", () => {
    const { options, lastParts } = callOptions(
      "Instructions.",
      [
        { role: "user", content: [{ type: "text", text: "one", providerOptions: { anthropic: cache } }] },
        { role: "assistant", content: "two" },
        { role: "user", content: "three" },
      ],
      { providerOptions: { anthropic: cache } },
    );
    applyAISDKCacheBreakpoints(options, "Instructions.", { system: [13], messages: [0, 1, 2] }, lastParts);
    // The caller's: the first message's and the call's (automatic caching); agentcore's: the two newest messages.
    expect(markers(options)).toEqual(["prompt[1].content[0]", "prompt[2].content[0]", "prompt[3].content[0]"]);
    expect(options.prompt[0]).toEqual({ role: "system", content: "Instructions." });
  });
});

describe("the adapter", () => {
  const model = (provider: string) =>
    new MockLanguageModelV3({
      provider,
      doGenerate: {
        content: [{ type: "text", text: "Hi." }],
        finishReason: { unified: "stop", raw: "end_turn" },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 2, text: 2, reasoning: undefined },
        },
        warnings: [],
      },
    });
  const run = async (
    languageModel: MockLanguageModelV3,
    agentModel: Parameters<typeof fromAISDK>[0] = languageModel,
  ) => {
    await new Agent({ model: agentModel, systemPrompt: "Instructions." }).run("Hello");
    return JSON.stringify(languageModel.doGenerateCalls[0]);
  };

  it("sends breakpoints to an Anthropic model only, unless fromAISDK's cacheControl says otherwise", async () => {
    expect(await run(model("anthropic.messages"))).toContain('"cacheControl":{"type":"ephemeral"}');
    expect(await run(model("openai.chat"))).not.toContain("cacheControl");
    const off = model("anthropic.messages");
    expect(await run(off, fromAISDK(off, { cacheControl: false }))).not.toContain("cacheControl");
    const custom = model("my-claude-proxy.messages");
    expect(await run(custom, fromAISDK(custom, { cacheControl: true }))).toContain("cacheControl");
    expect(() => fromAISDK(model("anthropic.messages"), { cacheControl: "yes" as never })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe("convertAISDKUsage: @ai-sdk/anthropic 2's split counts", () => {
  it("adds the cache reads and the writes of its provider metadata back into inputTokens", () => {
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 1000 };
    expect(convertAISDKUsage(usage, { anthropic: { cacheCreationInputTokens: 200 } })).toEqual({
      inputTokens: 1210,
      outputTokens: 5,
      totalTokens: 1215,
      cachedInputTokens: 1000,
      cacheCreationInputTokens: 200,
    });
    expect(convertAISDKUsage(usage, { anthropic: { cacheCreationInputTokens: null } })).toMatchObject({
      inputTokens: 1010,
      cachedInputTokens: 1000,
    });
    // Other v2 providers (OpenAI's) count cached tokens inside inputTokens already.
    expect(convertAISDKUsage({ inputTokens: 1200, outputTokens: 5, cachedInputTokens: 1000 }, {})).toMatchObject({
      inputTokens: 1200,
      cachedInputTokens: 1000,
    });
  });
});
