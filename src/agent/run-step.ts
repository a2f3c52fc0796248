import type { AssistantMessage, AgentMessage } from "../messages/agent-message";
import { messageUsage, withoutMetadata } from "../messages/message-metadata";
import type { LanguageModelCall } from "../models/language-model";
import type { MemoryRecord } from "../providers/memory-provider";
import type { Fact } from "../stores/memory-store";
import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart, StepResult, ToolApprovalRequest } from "./agent-result";
import { callForObject } from "./call-for-object";
import { renderFactsBlock } from "./facts-block";
import { fitWindow } from "./fit-window";
import { recordContext } from "./record-context";
import type { TurnRun } from "./turn-run";
import { runTools } from "./run-tools";
import { sendableMessages } from "./sendable-messages";
import { markApprovals } from "./tool-approvals";
import { prepareStep } from "./prepare-step";
import { toolCallIdsOf, uniqueToolCallIds } from "./unique-tool-call-ids";
import type { ProvidedContext } from "./provider-history";
import type { LoadedHistory } from "./session-history";
import { buildSystemPrompt, renderRecalledMemories, stableMessageEnds, stableSystemLengths } from "./system-prompt";
import { withRecalledMemories } from "./with-recalled-memories";
import type { TurnLog } from "./turn-log";

/** What a step starts from. */
export interface StepInput {
  stepNumber: number;
  history: LoadedHistory;
  /** System messages of a history read from a provider (a summary, other context), rendered as data. */
  context: ProvidedContext | undefined;
  facts: readonly Fact[];
  recalled: readonly MemoryRecord[];
  log: TurnLog;
  /** The run's turn, when the history is the store's (a window that needs a longer tail reads it through the turn). */
  storeTurn?: StoreTurn | undefined;
}

/**
 * One step: fit the window → call the model → run its tool calls. The step enters the log whole
 * (the assistant message with its tool results), so the pairing rule holds if the run stops.
 * Returns the history the window was fitted on, whether a tool changed the facts, and whether
 * the model answered without tool calls (the run is done).
 */
export async function* runStep(
  config: AgentConfig,
  run: TurnRun,
  { stepNumber, history, context, facts, recalled, log, storeTurn }: StepInput,
): AsyncGenerator<
  AgentStreamPart,
  { history: LoadedHistory; factsChanged: boolean; done: boolean; approvals: ToolApprovalRequest[] }
> {
  const fitted = await fitWindow(config, run, history, log.messages, storeTurn, (usage, model) =>
    log.addSpent(usage, model),
  );
  const window = fitted.window;
  // The app's `prepareStep` may change this call: its model, tools, instructions, fewer messages (checked).
  const prepared = config.prepareStep
    ? await prepareStep(config, run, stepNumber, log.steps, window.messages)
    : undefined;
  const stepConfig = prepared ? prepared.config : config;
  const messages = prepared ? prepared.messages : window.messages;
  const stable = {
    ...(stepConfig.systemPrompt ? { systemPrompt: stepConfig.systemPrompt } : {}),
    ...(config.facts && facts.length
      ? { factsBlock: renderFactsBlock(facts as Fact[], { maxTokens: config.facts.maxPromptTokens }) }
      : {}),
    ...(run.workingMemory ? { workingMemoryBlock: run.workingMemory.block } : {}),
  };
  // Recalled memories change with every input: they go in this turn's user message (the call's
  // copy of it), so the system prompt and the history before it stay a cached prefix. Without
  // that message in the window (a run that only answers approvals), in the system prompt.
  const inMessages = withRecalledMemories(
    messages,
    log.added.find((message) => message.role === "user"),
    renderRecalledMemories(recalled as MemoryRecord[]),
  );
  const system = buildSystemPrompt({
    ...stable,
    ...(context?.summary || window.summary
      ? { summary: [context?.summary, window.summary].filter(Boolean).join("\n\n") }
      : {}),
    ...(context?.other ? { memoryContext: context.other } : {}),
    ...(inMessages ? {} : { recalled: recalled as MemoryRecord[] }),
  });
  yield* run.notifier.tell({ type: "step:start", step: stepNumber, messageCount: messages.length });

  const call: LanguageModelCall = {
    ...(system === undefined ? {} : { system }),
    // A part the model does not take (stored earlier, or in a stateless history) goes as a text placeholder.
    // Metadata is the app's and agentcore's record, never the model's.
    messages: await sendableMessages(stepConfig.model, withoutMetadata(inMessages?.messages ?? messages)),
    tools: stepConfig.toolDefinitions,
    ...(run.abortSignal ? { abortSignal: run.abortSignal } : {}),
    ...config.callSettings,
    ...(config.cacheControl
      ? {
          cacheBreakpoints: {
            system: stableSystemLengths(stable),
            messages: stableMessageEnds(messages, inMessages?.userIndex),
          },
        }
      : {}),
    ...(run.output ? { responseFormat: run.output.responseFormat } : {}),
  };
  if (prepared?.toolChoice !== undefined) call.toolChoice = prepared.toolChoice;
  // Ids unique in what the model sees, so each result stays paired with its own call (a streamed
  // call gets its id as its input starts to stream). A generated answer needs them only when it
  // has tool calls: most steps have none, so they are collected then, from the same messages.
  const seen = () => toolCallIdsOf(fitted.history.messages, window.messages, log.messages);
  const streamed = run.mode === "stream" ? seen() : undefined;
  const { response, usage, durationMs, object } = yield* callForObject(stepConfig, run, call, log, streamed);
  if (config.recordContext) {
    const called = { usage, finishReason: response.finishReason };
    await recordContext(stepConfig, run, {
      stepNumber,
      fitted,
      turn: log.messages,
      context,
      facts,
      recalled,
      response: called,
      prepared: prepared?.changes,
    });
  }
  // The object is stored as its JSON: the assistant message of a structured answer.
  const text = object ? object.json : response.text;
  if (object) log.setObject(object.value);
  // Calls whose tool needs the user's approval wait for it (marked with an approval id); the others run.
  const { calls: toolCalls, requests } =
    response.toolCalls.length === 0
      ? { calls: [], requests: [] }
      : await markApprovals(stepConfig, run, uniqueToolCallIds(response.toolCalls, streamed ?? seen()), messages);
  const assistant: AssistantMessage = {
    id: log.assistantMessageId(),
    role: "assistant",
    // Reasoning first, exactly as received: a provider (Anthropic) takes it back only in that place.
    content: response.reasoning?.length
      ? [...response.reasoning, ...(text === "" ? [] : [{ type: "text" as const, text }])]
      : text,
    ...(toolCalls.length ? { toolCalls } : {}),
    metadata: {
      ...run.metadata,
      agentcore: {
        provider: config.model.provider,
        modelId: config.model.modelId,
        usage: messageUsage(usage),
        finishReason: response.finishReason,
        durationMs,
      },
    },
    timestamp: Date.now(),
  };
  const step: StepResult = {
    stepNumber,
    text,
    toolCalls,
    toolResults: [],
    finishReason: response.finishReason,
    usage,
  };

  let toolMessages: AgentMessage[] = [];
  if (toolCalls.length > 0) {
    for (const toolCall of toolCalls) yield* run.notifier.tell({ type: "tool:call", step: stepNumber, toolCall });
    for (const approval of requests)
      yield* run.notifier.tell({ type: "tool:approval-request", step: stepNumber, approval });
    const runnable = requests.length === 0 ? toolCalls : toolCalls.filter((toolCall) => !toolCall.approval);
    const outcome = await runTools(stepConfig, run, stepNumber, runnable, messages, log);
    step.toolResults.push(...outcome.results);
    yield* outcome.parts;
    toolMessages = outcome.messages;
    // Stopped while tools ran: the calls left without a result are dropped (the pairing rule).
    if (outcome.results.length < runnable.length) keepAnswered(assistant, step, toolMessages);
  }
  // The step is complete only now: the call and its results enter history together (a stopped
  // step without text or answered calls leaves nothing).
  if (assistant.finishReason !== "stopped" || assistant.content !== "" || assistant.toolCalls?.length)
    log.add(assistant, ...toolMessages);
  log.addStep(step);
  yield* run.notifier.tell({
    type: "step:end",
    step: stepNumber,
    text: step.text,
    toolCalls,
    finishReason: step.finishReason,
    usage: step.usage,
    messages: [assistant, ...toolMessages],
  });
  return {
    history: fitted.history,
    factsChanged: toolCalls.some((toolCall) => config.factChangingTools.has(toolCall.name)),
    done: toolCalls.length === 0 || requests.length > 0,
    approvals: requests,
  };
}

/** A stopped step's calls: only those answered by a result (and those awaiting approval) stay. */
function keepAnswered(assistant: AssistantMessage, step: StepResult, results: readonly AgentMessage[]): void {
  const answered = new Set(results.map((message) => (message as { toolCallId?: string }).toolCallId));
  const kept = (assistant.toolCalls ?? []).filter((call) => call.approval !== undefined || answered.has(call.id));
  if (kept.length > 0) assistant.toolCalls = kept;
  else delete assistant.toolCalls;
  assistant.finishReason = "stopped";
  step.toolCalls = kept;
}
