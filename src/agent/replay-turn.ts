import { contentText } from "../messages/content-text";
import type { AgentMessage, ToolMessage } from "../messages/agent-message";
import type { LanguageModelUsage } from "../models/language-model";
import { toolOutput } from "../ui/convert-to-ui-messages";
import type { AgentResult, AgentStreamPart, RunFinishReason, StepResult, ToolResult } from "./agent-result";
import { pendingRequests } from "./tool-approvals";
import { retriedAnswers, retriedMessages, retriedToolCalls, type RetriedTurn } from "./retried-turn";
import type { TurnRun } from "./turn-run";

const NO_USAGE: LanguageModelUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * Answers a retried request with the turn the store holds (`findRetriedTurn`): no model call, no
 * tool run, nothing stored. Streams the turn as its run streamed it (each assistant message a step:
 * its text, its calls, their results; the calls still awaiting approval as requests), so a
 * `useChat` page gets the same answer, under the stored message's id (`step-start`'s `messageId`);
 * returns it as the run's result with `replayed: true` and no usage. `run:end` says `replayed`.
 */
export async function* replayTurn(
  run: TurnRun,
  retried: RetriedTurn,
  startedAt: number,
  history: readonly AgentMessage[],
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const messages = retriedMessages(retried);
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === "tool") results.set(message.toolCallId, message);
  const steps: StepResult[] = [];
  const answers = retriedAnswers(messages);
  for (const [index, answer] of answers.entries()) {
    const stepNumber = index + 1;
    yield { type: "step-start", stepNumber, ...(index === 0 && answer.id ? { messageId: answer.id } : {}) };
    const text = contentText(answer.content);
    if (text !== "") yield { type: "text-delta", delta: text };
    const toolCalls = answer.toolCalls ?? [];
    const toolResults: ToolResult[] = [];
    for (const call of toolCalls) {
      yield { type: "tool-call", toolCall: call };
      const result = results.get(call.id);
      if (!result) continue;
      const denied = result.approval?.approved === false;
      const toolResult: ToolResult = {
        toolCallId: call.id,
        toolName: call.name,
        result: toolOutput(result.content),
        isError: denied,
        ...(denied ? { denied: true as const } : {}),
      };
      toolResults.push(toolResult);
      yield { type: "tool-result", ...toolResult };
    }
    const finishReason = toolCalls.length > 0 ? "tool-calls" : "stop";
    steps.push({ stepNumber, text, toolCalls, toolResults, finishReason, usage: NO_USAGE });
    // The stored messages of the step: the UI stream sends their metadata, as the run that stored them did.
    const stepMessages: AgentMessage[] = [answer];
    for (const call of toolCalls) {
      const result = results.get(call.id);
      if (result) stepMessages.push(result);
    }
    yield { type: "step-finish", stepNumber, finishReason, usage: NO_USAGE, messages: stepMessages };
  }
  const toolApprovals = retried.pending ? pendingRequests({ ...retried.pending, pending: waiting(retried) }) : [];
  for (const approval of toolApprovals) yield { type: "tool-approval-request", approval };
  const text = steps.at(-1)?.text ?? "";
  const finishReason: RunFinishReason =
    toolApprovals.length > 0 ? "tool-approval" : (steps.at(-1)?.finishReason ?? "other");
  const object = run.output ? parsedObject(run, text) : undefined;
  const result: AgentResult = {
    text,
    messages: [retried.user, ...messages],
    usage: NO_USAGE,
    steps,
    toolCalls: retriedToolCalls(messages),
    toolResults: steps.flatMap((step) => step.toolResults),
    finishReason,
    toolApprovals,
    sessionId: run.sessionId,
    runId: run.runId,
    replayed: true,
    ...(object === undefined ? {} : { object: object.value }),
  };
  // The stream's `finish` part and the event.
  yield* run.notifier.tell({
    type: "run:end",
    text,
    usage: NO_USAGE,
    steps: steps.length,
    durationMs: Date.now() - startedAt,
    finishReason,
    replayed: true,
    state: { messages: [...history] },
  });
  return result;
}

/** The pending step's calls still without a result. */
function waiting(retried: RetriedTurn) {
  const answered = new Set(retried.pending!.results.map((result) => result.toolCallId));
  return retried.pending!.pending.filter((call) => !answered.has(call.id));
}

/** A retried structured-output run's object: the stored answer, parsed and checked again. */
function parsedObject(run: TurnRun, text: string): { value: unknown } | undefined {
  try {
    const parsed = run.output!.schema.safeParse(JSON.parse(text));
    return parsed.success ? { value: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}
