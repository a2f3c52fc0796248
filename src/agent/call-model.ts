import { boundToolArguments, exceedsDepth } from "../messages/tool-arguments-depth";
import type { LanguageModel, LanguageModelCall, LanguageModelResult } from "../models/language-model";
import { estimateMessagesTokens } from "../tokens/estimate-tokens";
import { sharedTokenCalibration } from "../tokens/token-calibration";
import { isEncodingLoaded, tokenizerFor } from "../tokens/tokenizer";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart } from "./agent-result";
import type { TurnRun } from "./turn-run";
import { streamModel } from "./stream-model";

/**
 * Calls the model: `doGenerate`, or `doStream` (`stream-model.ts`) with text, reasoning and tool
 * inputs yielded as they come. Learns
 * the token calibration of the model from the usage it reports.
 */
export async function* callModel(
  config: AgentConfig,
  run: TurnRun,
  call: LanguageModelCall,
  /** The tool call ids the model can see: a streamed call's id is made unique against them (`uniqueToolCallIds`). */
  takenToolCallIds: ReadonlySet<string> = new Set(),
): AsyncGenerator<AgentStreamPart, LanguageModelResult> {
  const span = run.trace?.chat(config.model, call);
  let response: LanguageModelResult;
  try {
    const generate = () => config.model.doGenerate(call);
    response =
      run.mode === "generate"
        ? await (span ? span.within(generate) : generate())
        : yield* streamModel(config.model, run, call, span, takenToolCallIds);
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
