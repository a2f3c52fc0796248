import type { ToolCall } from "../messages/agent-message";
import type { ReasoningPart } from "../messages/content-parts";
import { boundToolArguments, exceedsDepth } from "../messages/tool-arguments-depth";
import {
  emptyUsage,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
} from "../models/language-model";
import { estimateMessagesTokens } from "../tokens/estimate-tokens";
import { sharedTokenCalibration } from "../tokens/token-calibration";
import { isEncodingLoaded, tokenizerFor } from "../tokens/tokenizer";
import type { AgentConfig } from "./agent-config";
import type { TracedSpan } from "./telemetry/traced-span";
import type { AgentStreamPart } from "./agent-result";
import type { TurnRun } from "./turn-run";
import { throwIfAborted } from "./throw-if-aborted";

/**
 * Calls the model: `doGenerate`, or `doStream` with each text delta yielded as it comes. Learns
 * the token calibration of the model from the usage it reports.
 */
export async function* callModel(
  config: AgentConfig,
  run: TurnRun,
  call: LanguageModelCall,
): AsyncGenerator<AgentStreamPart, LanguageModelResult> {
  const span = run.trace?.chat(config.model, call);
  let response: LanguageModelResult;
  try {
    const generate = () => config.model.doGenerate(call);
    response =
      run.mode === "generate"
        ? await (span ? span.within(generate) : generate())
        : yield* streamModel(config.model, run, call, span);
  } catch (error) {
    span?.fail(error, run.abortSignal?.aborted);
    throw error;
  }
  response = withBoundedArguments(response);
  if (span) run.trace!.endChat(span, config.model, response);
  calibrateTokens(config.model, call, response.usage.inputTokens);
  return response;
}

/**
 * The response with tool arguments nested deeper than `MAX_TOOL_ARGUMENTS_DEPTH` replaced by
 * `ARGUMENTS_TOO_DEEP`, whatever model gave them: such a call is answered with a tool error and
 * stored with `{}`, so no trace, stream or store has to serialise the deep value.
 */
function withBoundedArguments(response: LanguageModelResult): LanguageModelResult {
  if (!response.toolCalls.some((toolCall) => exceedsDepth(toolCall.arguments))) return response;
  return {
    ...response,
    toolCalls: response.toolCalls.map((toolCall) => ({
      ...toolCall,
      arguments: boundToolArguments(toolCall.arguments),
    })),
  };
}

async function* streamModel(
  model: LanguageModel,
  run: TurnRun,
  call: LanguageModelCall,
  span: TracedSpan | undefined,
): AsyncGenerator<AgentStreamPart, LanguageModelResult> {
  let text = "";
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  let finish: Extract<LanguageModelStreamPart, { type: "finish" }> | undefined;
  const parts = model.doStream(call);
  // Read in the chat span's context, as `doGenerate` runs in it: the provider's own spans stay out.
  for await (const part of span ? span.iterateWithin(parts) : parts) {
    throwIfAborted(run);
    if (part.type === "text-delta") {
      if (part.delta.length === 0) continue;
      text += part.delta;
      // Straight to the stream when it gave a sink: a delta need not pass through every generator of the loop.
      if (run.textSink) run.textSink({ type: "text-delta", delta: part.delta });
      else yield* run.notifier.tell({ type: "text-delta", delta: part.delta });
    } else if (part.type === "reasoning") {
      reasoning.push(part.reasoning);
      // To the stream too (the UI stream's reasoning-* chunks), in its place among the text deltas.
      const { text: delta, providerOptions } = part.reasoning;
      const moment = {
        type: "reasoning-delta" as const,
        delta,
        ...(providerOptions ? { providerMetadata: providerOptions } : {}),
      };
      if (run.textSink) run.textSink(moment);
      else yield* run.notifier.tell(moment);
    } else if (part.type === "tool-call") {
      toolCalls.push(part.toolCall);
    } else if (part.type === "finish") {
      finish = part;
    }
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
}

/**
 * Learns the ratio of the provider's input-token count to our estimate of the same request. Only
 * once the model's tokenizer is loaded: the ratio serves token budgets, and a run that never had
 * to count (a sliding window, a short history) does not pay the tokenizer's cold load for it.
 */
function calibrateTokens(model: LanguageModel, call: LanguageModelCall, reportedInputTokens: number): void {
  if (
    !(reportedInputTokens > 0) ||
    !isEncodingLoaded(tokenizerFor(model).encoding) ||
    !sharedTokenCalibration.wants(model)
  )
    return;
  const estimated = estimateMessagesTokens(call.messages, {
    model,
    ...(call.system === undefined ? {} : { system: call.system }),
    tools: call.tools,
  });
  sharedTokenCalibration.record(model, estimated, reportedInputTokens);
}
