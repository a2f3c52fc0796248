import { AbortError } from "../errors/abort-error";
import type { AgentMessage, AssistantMessage, ToolCall, ToolMessage, UserMessage } from "../messages/agent-message";
import {
  addUsage,
  emptyUsage,
  type FinishReason,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
  type ToolDefinition,
} from "../models/language-model";
import type { MemoryProvider, MemoryRecord } from "../providers/memory-provider";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import type { AdaptedStore } from "../stores/store-adapter";
import { executeToolCall } from "../tools/execute-tool-call";
import type { ToolSet } from "../tools/tool";
import type { AgentEventEmitter, AgentEventMap } from "./agent-events";
import type { AgentResult, AgentStreamPart, StepResult, ToolResult } from "./agent-result";
import { applyStrategy, loadSessionHistory, type LoadedHistory } from "./session-history";
import { buildSystemPrompt } from "./system-prompt";
import { withTimeout } from "../providers/with-timeout";
import { renderFactsBlock } from "./facts-block";
import type { Fact } from "../stores/memory-store";
import { estimateMessagesTokens } from "../tokens/estimate-tokens";
import { sharedTokenCalibration } from "../tokens/token-calibration";

/** Everything one run needs, resolved by the Agent. */
export interface TurnContext {
  runId: string;
  sessionId: string;
  userId?: string;
  agentName?: string;
  input: string;
  abortSignal?: AbortSignal;
  model: LanguageModel;
  systemPrompt?: string;
  strategy: IMemoryStrategy;
  store: AdaptedStore;
  tools: ToolSet;
  toolDefinitions: ToolDefinition[];
  maxSteps: number;
  memoryProvider?: MemoryProvider;
  /** Set when memory tools are on: where this run's facts live and how much of the prompt they may take. */
  facts?: { scopeId: string; maxPromptTokens: number };
  recallLimit: number;
  memoryProviderTimeoutMs: number;
  callSettings: Pick<LanguageModelCall, "maxOutputTokens" | "temperature" | "maxRetries">;
  events: AgentEventEmitter;
  /** `stream` uses the model's `doStream` and yields text as it comes. */
  mode: "generate" | "stream";
}

/**
 * One run: load → recall → persist the user message → (fit → call → tools)* → persist the turn.
 * Yields stream parts and returns the result. On abort or failure, the user message and every
 * completed step stay stored (each step whole, so the pairing rule holds) and the error is thrown.
 */
export async function* runTurn(context: TurnContext): AsyncGenerator<AgentStreamPart, AgentResult> {
  const startedAt = Date.now();
  const base = { sessionId: context.sessionId, runId: context.runId, ...(context.agentName ? { agentName: context.agentName } : {}) };
  context.events.emit("run:start", { ...base, input: context.input, ...(context.userId ? { userId: context.userId } : {}) });

  const steps: StepResult[] = [];
  const turn: AgentMessage[] = [];
  let persistedCount = 0;
  let usage = emptyUsage();
  let finishReason: FinishReason = "other";

  const persistCompletedSteps = async () => {
    const pending = turn.slice(persistedCount);
    if (pending.length === 0) return;
    await context.store.appendMessages(context.sessionId, pending);
    persistedCount = turn.length;
    context.events.emit("memory:write", { ...base, messages: pending, messageIds: pending.map((message) => message.id!) });
  };

  try {
    throwIfAborted(context);
    const historyLimit = context.strategy.historyLimit;
    let history = await loadSessionHistory(context.store, context.sessionId, historyLimit === undefined ? {} : { limit: historyLimit });
    let facts = await loadFacts(context);
    const recalled = await recallMemories(context, base);
    context.events.emit("memory:read", { ...base, messageCount: history.messages.length, factCount: facts.length, recalledCount: recalled.length });

    const userMessage: UserMessage = { id: newId(), role: "user", content: context.input, timestamp: Date.now() };
    turn.push(userMessage);
    await persistCompletedSteps();

    for (let stepNumber = 1; stepNumber <= context.maxSteps; stepNumber++) {
      throwIfAborted(context);
      const fitted = await fitWindow(context, base, history, turn);
      history = fitted.history;
      const window = fitted.window;
      const system = buildSystemPrompt({
        ...(context.systemPrompt ? { systemPrompt: context.systemPrompt } : {}),
        ...(context.facts && facts.length ? { factsBlock: renderFactsBlock(facts, { maxTokens: context.facts.maxPromptTokens }) } : {}),
        ...(window.summary ? { summary: window.summary } : {}),
        recalled,
      });
      context.events.emit("step:start", { ...base, step: stepNumber, messageCount: window.messages.length });
      yield { type: "step-start", stepNumber };

      const call: LanguageModelCall = {
        ...(system === undefined ? {} : { system }),
        messages: window.messages,
        tools: context.toolDefinitions,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        ...context.callSettings,
      };
      const response = yield* callModel(context, call);
      calibrateTokens(context.model, call, response.usage.inputTokens);
      usage = addUsage(usage, response.usage);
      finishReason = response.finishReason;
      const toolCalls = response.toolCalls.map((toolCall) => ({ ...toolCall, id: toolCall.id || newId() }));
      const assistant: AssistantMessage = {
        id: newId(),
        role: "assistant",
        content: response.text,
        ...(toolCalls.length ? { toolCalls } : {}),
        timestamp: Date.now(),
      };
      const step: StepResult = {
        stepNumber,
        text: response.text,
        toolCalls,
        toolResults: [],
        finishReason: response.finishReason,
        usage: response.usage,
      };

      if (toolCalls.length > 0) {
        for (const toolCall of toolCalls) {
          context.events.emit("tool:call", { ...base, step: stepNumber, toolCall });
          yield { type: "tool-call", toolCall };
        }
        const toolMessages = await runTools(context, base, stepNumber, toolCalls, window.messages, step.toolResults);
        for (const result of step.toolResults) yield { type: "tool-result", ...result };
        // The step is complete only now: the call and its results enter history together.
        turn.push(assistant, ...toolMessages);
        if (toolCalls.some((toolCall) => toolCall.name === "remember_fact" || toolCall.name === "forget_fact")) {
          facts = await loadFacts(context);
        }
      } else {
        turn.push(assistant);
      }
      steps.push(step);
      context.events.emit("step:end", { ...base, step: stepNumber, text: step.text, toolCalls, finishReason: step.finishReason, usage: step.usage });
      yield { type: "step-finish", stepNumber, finishReason: step.finishReason, usage: step.usage };
      if (toolCalls.length === 0) break;
    }

    await persistCompletedSteps();
    const text = steps.at(-1)?.text ?? "";
    await rememberTurn(context, base, turn);
    yield { type: "finish", finishReason, usage, text };
    context.events.emit("run:end", { ...base, text, usage, steps: steps.length, durationMs: Date.now() - startedAt, finishReason });
    const allToolCalls: ToolCall[] = steps.flatMap((step) => step.toolCalls);
    const allToolResults: ToolResult[] = steps.flatMap((step) => step.toolResults);
    return {
      text,
      messages: turn,
      usage,
      steps,
      toolCalls: allToolCalls,
      toolResults: allToolResults,
      finishReason,
      sessionId: context.sessionId,
      runId: context.runId,
    };
  } catch (thrown) {
    const error = context.abortSignal?.aborted && !AbortError.isInstance(thrown) ? new AbortError({ sessionId: context.sessionId, cause: thrown }) : thrown;
    try {
      await persistCompletedSteps();
    } catch (persistError) {
      context.events.emit("memory:error", { ...base, source: "store", operation: "appendMessages", error: persistError });
    }
    context.events.emit("run:end", {
      ...base,
      text: steps.at(-1)?.text ?? "",
      usage,
      steps: steps.length,
      durationMs: Date.now() - startedAt,
      finishReason: AbortError.isInstance(error) ? "aborted" : "error",
      error,
    });
    throw error;
  }
}

type EventBase = AgentEventMap["run:start"];

async function loadFacts(context: TurnContext): Promise<Fact[]> {
  if (!context.facts) return [];
  return await context.store.getFacts(context.facts.scopeId);
}

async function recallMemories(context: TurnContext, base: Omit<EventBase, "input">): Promise<MemoryRecord[]> {
  const provider = context.memoryProvider;
  if (!provider) return [];
  try {
    // The provider's signal fires at the timeout (or with the run's), so its request is cancelled too.
    const records = await withTimeout(
      (abortSignal) =>
        provider.read({
          sessionId: context.sessionId,
          ...(context.userId ? { userId: context.userId } : {}),
          query: context.input,
          limit: context.recallLimit,
          abortSignal,
        }),
      { ms: context.memoryProviderTimeoutMs, provider: provider.type, operation: "read", ...(context.abortSignal ? { parent: context.abortSignal } : {}) },
    );
    // Records come from outside: keep only well-formed ones, so a bad one cannot break the prompt.
    return Array.isArray(records) ? records.filter(isMemoryRecord).slice(0, context.recallLimit) : [];
  } catch (error) {
    if (context.abortSignal?.aborted) throw error;
    context.events.emit("memory:error", { ...base, source: provider.type, operation: "read", error });
    return [];
  }
}

function isMemoryRecord(record: unknown): record is MemoryRecord {
  return typeof record === "object" && record !== null && typeof (record as MemoryRecord).content === "string";
}

async function rememberTurn(context: TurnContext, base: Omit<EventBase, "input">, turn: AgentMessage[]): Promise<void> {
  const provider = context.memoryProvider;
  if (!provider) return;
  try {
    await withTimeout(
      (abortSignal) =>
        provider.write(turn, {
          sessionId: context.sessionId,
          ...(context.userId ? { userId: context.userId } : {}),
          ...(context.agentName ? { agentName: context.agentName } : {}),
          abortSignal,
        }),
      { ms: context.memoryProviderTimeoutMs, provider: provider.type, operation: "write" },
    );
  } catch (error) {
    context.events.emit("memory:error", { ...base, source: provider.type, operation: "write", error });
  }
}

async function fitWindow(context: TurnContext, base: Omit<EventBase, "input">, loaded: LoadedHistory, turn: readonly AgentMessage[]) {
  const calibration = sharedTokenCalibration.ratio(context.model);
  const { result, history, messages } = await applyStrategy(context.strategy, context.store, context.sessionId, loaded, turn, {
    ...(context.systemPrompt ? { system: context.systemPrompt } : {}),
    model: context.model,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    ...(calibration === undefined ? {} : { calibration }),
    onError: (error) => context.events.emit("memory:error", { ...base, source: context.strategy.name, operation: "apply", error }),
  });
  // Counting the history read (cached per message, still linear in it): done only when someone listens.
  if ((result.dropped.length > 0 || result.summary) && context.events.hasListeners("context:trimmed")) {
    const tokensAfter = estimateMessagesTokens(result.messages, { model: context.model });
    context.events.emit("context:trimmed", {
      tokensBefore: estimateMessagesTokens(messages, { model: context.model }),
      tokensAfter,
      calibratedTokensAfter: Math.ceil(tokensAfter * (calibration ?? 1)),
      ...(calibration === undefined ? {} : { calibration }),
      ...(result.budget === undefined ? {} : { budget: result.budget }),
      ...base,
      strategy: context.strategy.name,
      droppedCount: result.dropped.length,
      droppedMessageIds: result.dropped.flatMap((message) => (message.id ? [message.id] : [])),
      keptCount: result.messages.length,
      summarized: Boolean(result.summary),
    });
  }
  return { window: result, history };
}

/** Learns the ratio of the provider's input-token count to our estimate of the same request. */
function calibrateTokens(model: LanguageModel, call: LanguageModelCall, reportedInputTokens: number): void {
  if (!(reportedInputTokens > 0)) return;
  const estimated = estimateMessagesTokens(call.messages, { model, ...(call.system === undefined ? {} : { system: call.system }), tools: call.tools });
  sharedTokenCalibration.record(model, estimated, reportedInputTokens);
}

async function* callModel(context: TurnContext, call: LanguageModelCall): AsyncGenerator<AgentStreamPart, LanguageModelResult> {
  if (context.mode === "generate") {
    return await context.model.doGenerate(call);
  }
  let text = "";
  const toolCalls: ToolCall[] = [];
  let finish: Extract<LanguageModelStreamPart, { type: "finish" }> | undefined;
  for await (const part of context.model.doStream(call)) {
    throwIfAborted(context);
    if (part.type === "text-delta") {
      if (part.delta.length === 0) continue;
      text += part.delta;
      yield { type: "text-delta", delta: part.delta };
    } else if (part.type === "tool-call") {
      toolCalls.push(part.toolCall);
    } else if (part.type === "finish") {
      finish = part;
    }
  }
  throwIfAborted(context);
  return {
    text,
    toolCalls,
    finishReason: finish?.finishReason ?? (toolCalls.length ? "tool-calls" : "other"),
    usage: finish?.usage ?? emptyUsage(),
    ...(finish?.response ? { response: finish.response } : {}),
  };
}

async function runTools(
  context: TurnContext,
  base: Omit<EventBase, "input">,
  stepNumber: number,
  toolCalls: ToolCall[],
  window: readonly AgentMessage[],
  results: ToolResult[],
): Promise<ToolMessage[]> {
  // Calls of one step run concurrently; their results keep the order of the calls.
  const outcomes = await Promise.all(
    toolCalls.map(async (toolCall) => {
      const startedAt = Date.now();
      const outcome = await executeToolCall(context.tools, toolCall, {
        sessionId: context.sessionId,
        runId: context.runId,
        ...(context.userId ? { userId: context.userId } : {}),
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        messages: window,
      });
      context.events.emit("tool:result", {
        ...base,
        step: stepNumber,
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        result: outcome.result,
        isError: outcome.isError,
        durationMs: Date.now() - startedAt,
      });
      return outcome;
    }),
  );
  // An abort that arrives while tools run is honoured after the step is recorded whole.
  return outcomes.map((outcome) => {
    results.push({ toolCallId: outcome.toolCall.id, toolName: outcome.toolCall.name, result: outcome.result, isError: outcome.isError });
    return {
      id: newId(),
      role: "tool",
      toolCallId: outcome.toolCall.id,
      name: outcome.toolCall.name,
      content: outcome.content,
      timestamp: Date.now(),
    } satisfies ToolMessage;
  });
}

function throwIfAborted(context: TurnContext): void {
  if (context.abortSignal?.aborted) throw new AbortError({ sessionId: context.sessionId, cause: context.abortSignal.reason });
}

/** A new message id. */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

