import type { ProviderOptions } from "../../messages/content-parts";
import type { LanguageModelStreamPart } from "../language-model";
import {
  mergeProviderMetadata,
  reasoningPart,
  convertAISDKFinishReason,
  convertAISDKResponse,
  convertAISDKToolCall,
  convertAISDKUsage,
} from "./ai-sdk-result";
import type { AISDKPart } from "./ai-sdk-types";

/**
 * Reads the stream of an AI SDK model's `doStream` as agentcore stream parts: `text-delta` as is,
 * `tool-input-start` / `tool-input-delta` as `tool-call-delta`, `tool-call` (input parsed) as
 * `tool-call`, `response-metadata` and `finish` (v2, v3 or v4 usage) as the one final `finish`.
 * A reasoning block (`reasoning-start`, `-delta`, `-end`) as `reasoning-delta` parts as it streams
 * and one `reasoning` part at its end, its provider metadata merged into `providerOptions` (a
 * signature comes on a delta).
 * An `error` part throws `toError(part.error)`. Text boundaries, sources, files, warnings and
 * provider-executed tools are not part of agentcore's messages and are skipped. Stopping early (an abort, a consumer that breaks off) cancels the stream, which
 * closes the provider's HTTP response.
 */
export async function* convertAISDKStream(
  stream: ReadableStream<AISDKPart>,
  toError: (error: unknown) => unknown,
): AsyncGenerator<LanguageModelStreamPart> {
  const reader = stream.getReader();
  const toolNames = new Map<string, string>();
  const reasoning = new Map<string, { text: string; providerOptions: ProviderOptions | undefined }>();
  let response: { id?: unknown; modelId?: unknown } = {};
  let sawToolCall = false;
  let finished = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part?.type) {
        case "text-delta": {
          const delta = (part as { delta?: unknown; textDelta?: unknown }).delta;
          if (typeof delta === "string" && delta !== "") yield { type: "text-delta", delta };
          break;
        }
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end": {
          const { id, delta, providerMetadata } = part as { id?: unknown; delta?: unknown; providerMetadata?: unknown };
          const key = typeof id === "string" ? id : "";
          const entry = reasoning.get(key) ?? { text: "", providerOptions: undefined };
          reasoning.set(key, entry);
          if (typeof delta === "string" && delta !== "") {
            entry.text += delta;
            yield { type: "reasoning-delta", delta };
          }
          entry.providerOptions = mergeProviderMetadata(entry.providerOptions, providerMetadata);
          if (part.type === "reasoning-end") {
            reasoning.delete(key);
            yield { type: "reasoning", reasoning: reasoningPart(entry.text, entry.providerOptions) };
          }
          break;
        }
        case "tool-input-start": {
          const { id, toolName, providerExecuted } = part as {
            id?: unknown;
            toolName?: unknown;
            providerExecuted?: unknown;
          };
          if (typeof id === "string" && typeof toolName === "string" && providerExecuted !== true)
            toolNames.set(id, toolName);
          break;
        }
        case "tool-input-delta": {
          const { id, delta } = part as { id?: unknown; delta?: unknown };
          const toolName = typeof id === "string" ? toolNames.get(id) : undefined;
          if (toolName !== undefined && typeof delta === "string" && delta !== "") {
            yield { type: "tool-call-delta", toolCallId: id as string, toolName, argumentsDelta: delta };
          }
          break;
        }
        case "tool-call": {
          const toolCall = convertAISDKToolCall(part);
          if (toolCall) {
            sawToolCall = true;
            yield { type: "tool-call", toolCall };
          }
          break;
        }
        case "response-metadata": {
          const { id, modelId } = part as { id?: unknown; modelId?: unknown };
          response = { id: response.id ?? id, modelId: response.modelId ?? modelId };
          break;
        }
        case "finish": {
          if (finished) break;
          finished = true;
          // Reasoning whose block never ended is kept, before the finish.
          for (const entry of reasoning.values()) {
            yield { type: "reasoning", reasoning: reasoningPart(entry.text, entry.providerOptions) };
          }
          reasoning.clear();
          const { finishReason, usage, providerMetadata } = part as {
            finishReason?: unknown;
            usage?: unknown;
            providerMetadata?: unknown;
          };
          const metadata = convertAISDKResponse(response);
          yield {
            type: "finish",
            finishReason: convertAISDKFinishReason(finishReason, sawToolCall),
            usage: convertAISDKUsage(usage, providerMetadata),
            ...(metadata ? { response: metadata } : {}),
          };
          break;
        }
        case "error":
          throw toError((part as { error?: unknown }).error);
        default:
          break;
      }
    }
  } catch (error) {
    throw toError(error);
  } finally {
    // Cancelling a finished stream is a no-op; an unfinished one (an abort, an early stop) is closed.
    reader.cancel().catch(() => {});
  }
  if (!finished) {
    const metadata = convertAISDKResponse(response);
    yield {
      type: "finish",
      finishReason: sawToolCall ? "tool-calls" : "other",
      usage: convertAISDKUsage(undefined),
      ...(metadata ? { response: metadata } : {}),
    };
  }
}
