import { SessionLockLostError } from "../errors/session-lock-lost-error";
import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModelResult } from "../models/language-model";
import type { MemoryRecord } from "../providers/memory-provider";
import { boundContextReport } from "../stores/bound-context-report";
import {
  type ContextLeftOut,
  type ContextPrepareStep,
  type ContextReport,
  PROVIDED_CONTEXT_PREVIEW_CHARS,
  RECALLED_PREVIEW_CHARS,
} from "../stores/context-report";
import type { Fact } from "../stores/memory-store";
import type { MemoryStrategyResult } from "../strategies/memory-strategy";
import { estimateMessagesTokens, estimateTokens } from "../tokens/estimate-tokens";
import { loadEncodingAsync, tokenizerFor } from "../tokens/tokenizer";
import type { AgentConfig } from "./agent-config";
import { renderFactsBlock } from "./facts-block";
import { newId } from "./new-id";
import type { ProvidedContext } from "./provider-history";
import type { LoadedHistory } from "./session-history";
import { buildSystemPrompt, renderRecalledMemories } from "./system-prompt";
import type { TurnRun } from "./turn-run";

/** What a step knows about its model call, for its context report. */
export interface StepContext {
  stepNumber: number;
  /** The window the strategy fitted, and the history it was fitted on. */
  fitted: { window: MemoryStrategyResult; history: LoadedHistory };
  /** This run's messages before the step (the user message, earlier steps). */
  turn: readonly AgentMessage[];
  context: ProvidedContext | undefined;
  facts: readonly Fact[];
  recalled: readonly MemoryRecord[];
  response: Pick<LanguageModelResult, "usage" | "finishReason">;
  /** What the agent's `prepareStep` changed of the call (the window's messages it left out among them), if anything. */
  prepared?: (ContextPrepareStep & { dropped: readonly AgentMessage[] }) | undefined;
}

/**
 * Records what one model call received (the agent's `recordContext: true`): built from what the
 * step already computed (the strategy's window and what it dropped; nothing is fitted again), kept
 * with `saveContextReport`. A failure to keep it degrades the step (`memory:error`), never fails it,
 * except a save refused because the run lost its session lock (`SessionLockLostError`: the store
 * fences it like an append): the run has lost its session, so it fails as a refused append would,
 * before its tools run.
 */
export async function recordContext(config: AgentConfig, run: TurnRun, step: StepContext): Promise<void> {
  try {
    await config.store.saveContextReport(run.sessionId, await buildContextReport(config, run, step));
  } catch (error) {
    if (SessionLockLostError.isInstance(error)) throw error;
    run.notifier.notify({ type: "memory:error", source: "recordContext", operation: "saveContextReport", error });
  }
}

/**
 * The report of one model call (exported for tests): what the store holds is referenced (message
 * ids, fact keys, the summary's id), what it does not (recalled memories, a provider's context) is
 * kept as a short preview, and the whole is cut to `MAX_CONTEXT_REPORT_BYTES`.
 */
export async function buildContextReport(config: AgentConfig, run: TurnRun, step: StepContext): Promise<ContextReport> {
  const { model, strategy } = config;
  const { window, history } = step.fitted;
  // What was sent: the strategy's window, less what `prepareStep` left out.
  const dropped = step.prepared?.dropped;
  const sent = dropped?.length ? window.messages.filter((message) => !dropped.includes(message)) : window.messages;
  await loadEncodingAsync(tokenizerFor(model).encoding);
  const count = (text: string | undefined) => (text ? estimateTokens(text, { model }) : 0);
  const factsBlock =
    config.facts && step.facts.length
      ? renderFactsBlock(step.facts as Fact[], { maxTokens: config.facts.maxPromptTokens })
      : undefined;
  const summaryText = [step.context?.summary, window.summary].filter(Boolean).join("\n\n");
  const summaryBlock = buildSystemPrompt({
    ...(summaryText ? { summary: summaryText } : {}),
    ...(step.context?.other ? { memoryContext: step.context.other } : {}),
  });
  const tokens = {
    // The working memory block is counted with the instructions: both are the prompt's stable head.
    system: count(config.systemPrompt) + count(run.workingMemory?.block),
    facts: count(factsBlock),
    summary: count(summaryBlock),
    recalled: count(renderRecalledMemories(step.recalled as MemoryRecord[])),
    window: estimateMessagesTokens(sent, { model }),
  };
  const provided = [step.context?.summary, step.context?.other].filter(Boolean).join("\n\n");
  return boundContextReport({
    id: newId(),
    sessionId: run.sessionId,
    runId: run.runId,
    step: step.stepNumber,
    createdAt: Date.now(),
    ...(run.userId ? { userId: run.userId } : {}),
    model: `${model.provider}/${model.modelId}`,
    strategy: strategy.name,
    window: sent.flatMap((message) => (message.id === undefined ? [] : [message.id])),
    leftOut: leftOutOf(window, [...history.messages, ...step.turn], dropped),
    unreadCount: history.offset,
    ...(window.summary && window.summaryId ? { summaryId: window.summaryId } : {}),
    ...(provided ? { providedContext: preview(provided, PROVIDED_CONTEXT_PREVIEW_CHARS) } : {}),
    facts: factsBlock ? step.facts.map(({ key }) => ({ key })) : [],
    recalled: step.recalled.map((record) => ({
      id: record.id,
      content: preview(record.content, RECALLED_PREVIEW_CHARS),
      ...(record.content.length > RECALLED_PREVIEW_CHARS ? { contentChars: record.content.length } : {}),
      ...(typeof record.score === "number" ? { score: record.score } : {}),
      ...(record.messageId ? { messageId: record.messageId } : {}),
    })),
    tokens: {
      ...tokens,
      total: tokens.system + tokens.facts + tokens.summary + tokens.recalled + tokens.window,
      ...(window.budget === undefined ? {} : { budget: window.budget }),
    },
    usage: { ...step.response.usage },
    finishReason: step.response.finishReason,
    ...(step.prepared
      ? { prepareStep: { changed: [...step.prepared.changed], droppedCount: step.prepared.droppedCount } }
      : {}),
  });
}

/** The start of `text`, at most `chars` characters (`…` ending a cut one). */
function preview(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/**
 * The stored messages the strategy dropped, with the reason (the first `summarizedCount` are the
 * summary's; the rest the token budget when the strategy has one, else its size), then the tool
 * results it sent cut.
 */
function leftOutOf(
  window: MemoryStrategyResult,
  given: readonly AgentMessage[],
  /** The window's messages `prepareStep` left out. */
  prepared: readonly AgentMessage[] = [],
): ContextLeftOut[] {
  const summarized = window.summarizedCount ?? (window.summary ? window.dropped.length : 0);
  const leftOut: ContextLeftOut[] = window.dropped.flatMap((message, index) =>
    message.id === undefined
      ? []
      : [
          {
            messageId: message.id,
            role: message.role,
            reason: index < summarized ? "summary" : window.budget === undefined ? "window-size" : "token-budget",
          } satisfies ContextLeftOut,
        ],
  );
  for (const message of prepared) {
    if (message.id !== undefined) leftOut.push({ messageId: message.id, role: message.role, reason: "prepare-step" });
  }
  const stored = new Map(given.map((message) => [message.id, message]));
  for (const sent of window.messages) {
    const original = sent.id === undefined ? undefined : stored.get(sent.id);
    if (sent.role !== "tool" || original?.role !== "tool" || original === sent) continue;
    if (typeof sent.content !== "string" || typeof original.content !== "string") continue;
    if (sent.content.length >= original.content.length) continue;
    leftOut.push({
      messageId: sent.id!,
      role: "tool",
      reason: "tool-result-cut",
      sentChars: sent.content.length,
      storedChars: original.content.length,
    });
  }
  return leftOut;
}
