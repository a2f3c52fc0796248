import type { ToolCall } from "../../messages/agent-message";
import type { ProviderOptions, ReasoningPart } from "../../messages/content-parts";
import {
  type FinishReason,
  type LanguageModelResult,
  type LanguageModelUsage,
  withCacheCounts,
} from "../language-model";
import { boundToolArguments } from "../../messages/tool-arguments-depth";
import { parseToolArguments } from "../parse-tool-arguments";
import type { AISDKGenerateResult, AISDKPart } from "./ai-sdk-types";

const finishReasons: ReadonlySet<string> = new Set([
  "stop",
  "length",
  "tool-calls",
  "content-filter",
  "error",
  "other",
]);

/**
 * An AI SDK finish reason as agentcore's: v3 and v4 give `{ unified, raw }`, v2 the bare string (with
 * `"unknown"`, which is `"other"` here). A step that made tool calls finished for them.
 */
export function convertAISDKFinishReason(reason: unknown, hasToolCalls: boolean): FinishReason {
  const unified = reason !== null && typeof reason === "object" ? (reason as { unified?: unknown }).unified : reason;
  if (hasToolCalls && (unified === "stop" || unified === "other" || unified === "unknown" || unified === undefined))
    return "tool-calls";
  return typeof unified === "string" && finishReasons.has(unified) ? (unified as FinishReason) : "other";
}

/**
 * AI SDK usage as agentcore's. v3 and v4 nest the counts (`inputTokens: { total, noCache, cacheRead,
 * cacheWrite }`, `outputTokens: { total, text, reasoning }`); v2 has flat numbers, `totalTokens`
 * and `cachedInputTokens` (and `reasoningTokens`). A count the provider did not report is 0 (a cache
 * or reasoning count: absent, as is one of 0).
 * `@ai-sdk/anthropic` 2 (v2) counts only uncached tokens in `inputTokens` and gives the tokens
 * written to the cache in `providerMetadata.anthropic.cacheCreationInputTokens`: both are added
 * back, so `inputTokens` holds every input token, as agentcore's usage does.
 */
export function convertAISDKUsage(usage: unknown, providerMetadata?: unknown): LanguageModelUsage {
  const record = usage !== null && typeof usage === "object" ? (usage as Record<string, unknown>) : {};
  let inputTokens = tokenCount(record.inputTokens);
  const outputTokens = tokenCount(record.outputTokens);
  let reportedTotal =
    typeof record.totalTokens === "number" && Number.isFinite(record.totalTokens) ? record.totalTokens : undefined;
  const input =
    record.inputTokens !== null && typeof record.inputTokens === "object"
      ? (record.inputTokens as { cacheRead?: unknown; cacheWrite?: unknown })
      : { cacheRead: record.cachedInputTokens, cacheWrite: anthropicV2CacheWrite(providerMetadata) };
  if (typeof record.inputTokens === "number" && input.cacheWrite !== undefined) {
    inputTokens += (optionalCount(input.cacheRead) ?? 0) + (optionalCount(input.cacheWrite) ?? 0);
    reportedTotal = undefined;
  }
  // v3 and v4: `outputTokens.reasoning`; v2: `reasoningTokens`.
  const reasoningTokens = optionalCount(
    record.outputTokens !== null && typeof record.outputTokens === "object"
      ? (record.outputTokens as { reasoning?: unknown }).reasoning
      : record.reasoningTokens,
  );
  return withCacheCounts(
    {
      inputTokens,
      outputTokens,
      totalTokens: reportedTotal ?? inputTokens + outputTokens,
      ...(reasoningTokens ? { reasoningTokens } : {}),
    },
    optionalCount(input.cacheRead),
    optionalCount(input.cacheWrite),
  );
}

/** `@ai-sdk/anthropic` 2's cache writes (`providerMetadata.anthropic.cacheCreationInputTokens`), when it is one. */
function anthropicV2CacheWrite(providerMetadata: unknown): number | undefined {
  if (providerMetadata === null || typeof providerMetadata !== "object") return undefined;
  const anthropic = (providerMetadata as { anthropic?: unknown }).anthropic;
  if (anthropic === null || typeof anthropic !== "object" || !("cacheCreationInputTokens" in anthropic))
    return undefined;
  return optionalCount((anthropic as { cacheCreationInputTokens?: unknown }).cacheCreationInputTokens) ?? 0;
}

function optionalCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function tokenCount(value: unknown): number {
  const count = value !== null && typeof value === "object" ? (value as { total?: unknown }).total : value;
  return typeof count === "number" && Number.isFinite(count) && count >= 0 ? count : 0;
}

/**
 * A tool call of the model for agentcore to run (`tool-call` content or stream part), or
 * `undefined` for one the provider ran itself (`providerExecuted`) or one without an id or name.
 * The input arrives as JSON text; invalid JSON becomes `{}`, too deep `ARGUMENTS_TOO_DEEP` (see
 * `parseToolArguments`).
 */
export function convertAISDKToolCall(part: AISDKPart): ToolCall | undefined {
  const { toolCallId, toolName, input, providerExecuted } = part as {
    toolCallId?: unknown;
    toolName?: unknown;
    input?: unknown;
    providerExecuted?: unknown;
  };
  if (
    providerExecuted === true ||
    typeof toolCallId !== "string" ||
    toolCallId === "" ||
    typeof toolName !== "string" ||
    toolName === ""
  )
    return undefined;
  const argumentsObject =
    typeof input === "string"
      ? parseToolArguments(input)
      : input !== null && typeof input === "object" && !Array.isArray(input)
        ? boundToolArguments(input as Record<string, unknown>)
        : {};
  return { id: toolCallId, name: toolName, arguments: argumentsObject };
}

/** The response id and model id the provider reported, when it did. */
export function convertAISDKResponse(
  response: { id?: unknown; modelId?: unknown } | undefined,
): { id?: string; modelId?: string } | undefined {
  if (!response) return undefined;
  const result: { id?: string; modelId?: string } = {};
  if (typeof response.id === "string" && response.id !== "") result.id = response.id;
  if (typeof response.modelId === "string" && response.modelId !== "") result.modelId = response.modelId;
  return result.id === undefined && result.modelId === undefined ? undefined : result;
}

/**
 * Provider metadata merged into one object, provider by provider (a stream gives a reasoning
 * block's metadata in pieces: a signature on a delta, redacted data on the start).
 */
export function mergeProviderMetadata(
  into: ProviderOptions | undefined,
  metadata: unknown,
): ProviderOptions | undefined {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return into;
  const merged: ProviderOptions = { ...into };
  for (const [provider, value] of Object.entries(metadata as Record<string, unknown>)) {
    const before = merged[provider];
    merged[provider] =
      value !== null && typeof value === "object" && before !== null && typeof before === "object"
        ? { ...(before as object), ...(value as object) }
        : value;
  }
  return Object.keys(merged).length ? merged : into;
}

/** A reasoning part of the model's answer, its provider metadata kept as `providerOptions` to send it back. */
export function reasoningPart(text: string, providerOptions: ProviderOptions | undefined): ReasoningPart {
  return { type: "reasoning", text, ...(providerOptions ? { providerOptions } : {}) };
}

/**
 * `doGenerate`'s answer as agentcore's model result: the text parts joined, the reasoning parts
 * (provider metadata as their `providerOptions`), the tool calls to run, finish reason, usage and
 * response metadata. Sources, files and the results of provider-executed tools have no place in
 * agentcore's messages and are left out.
 */
export function convertAISDKGenerateResult(result: AISDKGenerateResult): LanguageModelResult {
  let text = "";
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  for (const part of Array.isArray(result?.content) ? result.content : []) {
    if (part?.type === "reasoning") {
      const { text: partText, providerMetadata } = part as { text?: unknown; providerMetadata?: unknown };
      reasoning.push(
        reasoningPart(typeof partText === "string" ? partText : "", mergeProviderMetadata(undefined, providerMetadata)),
      );
    } else if (part?.type === "text") {
      const partText = (part as { text?: unknown }).text;
      if (typeof partText === "string") text += partText;
    } else if (part?.type === "tool-call") {
      const toolCall = convertAISDKToolCall(part);
      if (toolCall) toolCalls.push(toolCall);
    }
  }
  const response = convertAISDKResponse(result?.response);
  return {
    text,
    toolCalls,
    ...(reasoning.length ? { reasoning } : {}),
    finishReason: convertAISDKFinishReason(result?.finishReason, toolCalls.length > 0),
    usage: convertAISDKUsage(result?.usage, result?.providerMetadata),
    ...(response ? { response } : {}),
  };
}
