import type { ToolCall } from "../messages/agent-message";
import type { ReasoningPart } from "../messages/content-parts";
import {
  emptyUsage,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
} from "../models/language-model";
import type { AgentStreamPart } from "./agent-result";
import type { TracedSpan } from "./telemetry/traced-span";
import { throwIfAborted } from "./throw-if-aborted";
import type { TurnRun } from "./turn-run";
import { uniqueToolCallId } from "./unique-tool-call-ids";

/**
 * Reads the model's stream into its response, telling each moment as it comes: text deltas,
 * reasoning deltas (a reasoning block the model gives only whole is told as one delta) and each
 * block's end with its provider metadata (`reasoning-end`: a signature, redacted data), and a
 * tool call's input as the model writes it (`tool-input-start`, then `tool-input-delta`s). A
 * streamed call gets its final id when its input starts (unique against `taken`, as
 * `uniqueToolCallIds` would make it), so its start, deltas, call and result share one id.
 */
export async function* streamModel(
  model: LanguageModel,
  run: TurnRun,
  call: LanguageModelCall,
  span: TracedSpan | undefined,
  taken: ReadonlySet<string>,
): AsyncGenerator<AgentStreamPart, LanguageModelResult> {
  let text = "";
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  let reasoningStreamed = false;
  const used = new Set(taken);
  /** Model id → the id given when its input started, until its complete call arrives. */
  const streamedIds = new Map<string, string>();
  let finish: Extract<LanguageModelStreamPart, { type: "finish" }> | undefined;
  // A stop ends the read at once, even when the provider does not honour its signal.
  const parts = run.stop ? run.stop.guard(model.doStream(call)) : model.doStream(call);
  try {
    yield* readParts();
  } catch (error) {
    // What a stop keeps of the interrupted call: its text so far (incomplete tool calls dropped).
    if (run.stop) run.stop.partialText = text;
    throw error;
  }
  throwIfAborted(run);
  return {
    text,
    toolCalls,
    ...(reasoning.length ? { reasoning } : {}),
    finishReason: finish?.finishReason ?? (toolCalls.length ? "tool-calls" : "other"),
    usage: finish?.usage ?? emptyUsage(),
    ...(finish?.response ? { response: finish.response } : {}),
  };

  async function* readParts(): AsyncGenerator<AgentStreamPart, void> {
    // Read in the chat span's context, as `doGenerate` runs in it: the provider's own spans stay out.
    for await (const part of span ? span.iterateWithin(parts) : parts) {
      throwIfAborted(run);
      switch (part.type) {
        case "text-delta":
          if (part.delta.length === 0) continue;
          text += part.delta;
          // Straight to the stream when it gave a sink: a delta need not pass through every generator of the loop.
          if (run.textSink) run.textSink({ type: "text-delta", delta: part.delta });
          else yield* run.notifier.tell({ type: "text-delta", delta: part.delta });
          break;
        case "reasoning-delta":
          if (part.delta.length === 0) continue;
          reasoningStreamed = true;
          yield* run.notifier.tell({ type: "reasoning-delta", delta: part.delta });
          break;
        case "reasoning": {
          const { text: blockText, providerOptions } = part.reasoning;
          reasoning.push(part.reasoning);
          if (!reasoningStreamed && blockText !== "")
            yield* run.notifier.tell({ type: "reasoning-delta", delta: blockText });
          // The block's end, with what the provider needs to take it back (a block of nothing, unsigned, is not told).
          if (reasoningStreamed || blockText !== "" || providerOptions !== undefined)
            yield* run.notifier.tell({
              type: "reasoning-end",
              ...(providerOptions === undefined ? {} : { providerMetadata: providerOptions }),
            });
          reasoningStreamed = false;
          break;
        }
        case "tool-call-delta": {
          let id = streamedIds.get(part.toolCallId);
          if (id === undefined) {
            id = uniqueToolCallId(part.toolCallId, used);
            streamedIds.set(part.toolCallId, id);
            yield* run.notifier.tell({ type: "tool-input-start", toolCallId: id, toolName: part.toolName });
          }
          if (part.argumentsDelta !== "")
            yield* run.notifier.tell({ type: "tool-input-delta", toolCallId: id, delta: part.argumentsDelta });
          break;
        }
        case "tool-call": {
          const id = streamedIds.get(part.toolCall.id);
          streamedIds.delete(part.toolCall.id);
          toolCalls.push(id === undefined || id === part.toolCall.id ? part.toolCall : { ...part.toolCall, id });
          break;
        }
        case "finish":
          finish = part;
          break;
      }
    }
  }
}
