import type Anthropic from "@anthropic-ai/sdk";
import { type FinishReason, type LanguageModelUsage, withCacheCounts } from "../language-model";
import { parseToolArguments } from "../parse-tool-arguments";
import { StreamPartQueue } from "../read-event-stream";

type PendingToolUse = { id: string; name: string; json: string; emitted: boolean };
type PendingThinking = { text: string; signature: string } | { redactedData: string };

/**
 * Turns Messages API stream events into stream parts, queued until read: text deltas as they
 * come, tool-call deltas (`input_json_delta`), each tool call once its block stops (its input
 * parsed by `parseToolArguments`), then at the end the calls whose block never stopped and one
 * `finish` with the stop reason and the usage of `message_start` updated by `message_delta`.
 * Thinking blocks stream their text as `reasoning-delta` parts (`thinking_delta`); they and
 * redacted thinking become one `reasoning` part each when their block stops, the signature or data in
 * `providerOptions.anthropic` (sent back by `anthropic-content-blocks.ts`). Other blocks (server
 * tools) are skipped.
 */
export class AnthropicStreamParts extends StreamPartQueue {
  private readonly toolUses = new Map<number, PendingToolUse>();
  private readonly thinking = new Map<number, PendingThinking>();
  private stopReason: string | null | undefined;
  private usage: Partial<Anthropic.Messages.Usage> = {};
  private responseId: string | undefined;
  private responseModel: string | undefined;
  /** The block of the output tool (structured output), whose input streams as the answer's text. */
  private outputIndex: number | undefined;

  /** `outputToolName`: the output tool of a call with `responseFormat` (anthropic-output-tool.ts); its input is streamed as text, and other text is dropped. */
  constructor(private readonly outputToolName?: string) {
    super();
  }

  add(event: Anthropic.Messages.RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.responseId = event.message.id || undefined;
        this.responseModel = event.message.model || undefined;
        this.usage = { ...event.message.usage };
        break;
      case "content_block_start":
        if (event.content_block.type === "tool_use" && event.content_block.name === this.outputToolName) {
          this.outputIndex ??= event.index;
        } else if (event.content_block.type === "tool_use") {
          const block = event.content_block;
          this.toolUses.set(event.index, { id: block.id, name: block.name, json: "", emitted: false });
        } else if (event.content_block.type === "thinking") {
          const block = event.content_block;
          this.thinking.set(event.index, { text: block.thinking ?? "", signature: block.signature ?? "" });
        } else if (event.content_block.type === "redacted_thinking") {
          this.thinking.set(event.index, { redactedData: event.content_block.data ?? "" });
        } else if (event.content_block.type === "text" && event.content_block.text && !this.outputToolName) {
          this.push({ type: "text-delta", delta: event.content_block.text });
        }
        break;
      case "content_block_delta":
        if (event.delta.type === "text_delta") {
          if (event.delta.text && !this.outputToolName) this.push({ type: "text-delta", delta: event.delta.text });
        } else if (event.delta.type === "thinking_delta" || event.delta.type === "signature_delta") {
          const entry = this.thinking.get(event.index);
          if (entry && "text" in entry) {
            if (event.delta.type === "thinking_delta") {
              entry.text += event.delta.thinking ?? "";
              if (event.delta.thinking) this.push({ type: "reasoning-delta", delta: event.delta.thinking });
            } else entry.signature += event.delta.signature ?? "";
          }
        } else if (event.delta.type === "input_json_delta" && event.index === this.outputIndex) {
          if (event.delta.partial_json) this.push({ type: "text-delta", delta: event.delta.partial_json });
        } else if (event.delta.type === "input_json_delta") {
          const entry = this.toolUses.get(event.index);
          if (entry && event.delta.partial_json) {
            entry.json += event.delta.partial_json;
            this.push({
              type: "tool-call-delta",
              toolCallId: entry.id,
              toolName: entry.name,
              argumentsDelta: event.delta.partial_json,
            });
          }
        }
        break;
      case "content_block_stop": {
        const entry = this.toolUses.get(event.index);
        if (entry) this.emit(entry);
        this.emitThinking(event.index);
        break;
      }
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        // message_delta usage is cumulative; a field it leaves null keeps message_start's value.
        for (const [key, value] of Object.entries(event.usage ?? {})) {
          if (typeof value === "number") (this.usage as Record<string, number>)[key] = value;
        }
        break;
      default:
        break;
    }
  }

  /** The stream ended: the thinking and calls whose block never stopped, then `finish`. */
  end(): void {
    for (const index of [...this.thinking.keys()]) this.emitThinking(index);
    for (const entry of this.toolUses.values()) this.emit(entry);
    this.push({
      type: "finish",
      finishReason:
        this.outputIndex !== undefined && this.toolUses.size === 0
          ? "stop"
          : mapAnthropicStopReason(this.stopReason, this.toolUses.size > 0),
      usage: convertAnthropicUsage(this.usage),
      response: {
        ...(this.responseId ? { id: this.responseId } : {}),
        ...(this.responseModel ? { modelId: this.responseModel } : {}),
      },
    });
  }

  private emitThinking(index: number): void {
    const entry = this.thinking.get(index);
    if (!entry) return;
    this.thinking.delete(index);
    this.push({
      type: "reasoning",
      reasoning:
        "text" in entry
          ? { type: "reasoning", text: entry.text, providerOptions: { anthropic: { signature: entry.signature } } }
          : { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: entry.redactedData } } },
    });
  }

  private emit(entry: PendingToolUse): void {
    if (entry.emitted) return;
    entry.emitted = true;
    this.push({
      type: "tool-call",
      toolCall: { id: entry.id, name: entry.name, arguments: parseToolArguments(entry.json) },
    });
  }
}

/** Maps a Messages API `stop_reason` to agentcore's `FinishReason`. */
export function mapAnthropicStopReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return hasToolCalls ? "tool-calls" : "stop";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content-filter";
    default:
      return hasToolCalls ? "tool-calls" : "other";
  }
}

/**
 * Input tokens include cache writes and reads (the API counts those apart, `input_tokens` being
 * only the tokens after the last cache breakpoint); the reads are `cachedInputTokens`, the writes
 * `cacheCreationInputTokens`.
 */
export function convertAnthropicUsage(usage: Partial<Anthropic.Messages.Usage> | null | undefined): LanguageModelUsage {
  const inputTokens =
    (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
  const outputTokens = usage?.output_tokens ?? 0;
  return withCacheCounts(
    { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    usage?.cache_read_input_tokens,
    usage?.cache_creation_input_tokens,
  );
}
