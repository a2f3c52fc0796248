import { integerOption } from "../errors/check-option";
import { errorText } from "../errors/error-text";
import { SessionLockLostError } from "../errors/session-lock-lost-error";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../models/language-model";
import { resolveModelOption } from "../models/registry/model-registry";
import type { SummaryRecord } from "../stores/memory-store";
import { estimateTokens } from "../tokens/estimate-tokens";
import { loadEncodingAsync, tokenizerFor } from "../tokens/tokenizer";
import { callSummarizer, reportSummarizationFailure } from "./call-summarizer";
import { groupTurns } from "./group-turns";
import type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyResult } from "./memory-strategy";
import { selectWindow, type WindowLimits } from "./select-window";
import { summaryDigest } from "./summary-digest";
import { backendOf } from "../stores/backend-of";
import { resolveBehaviour, validCalibration, type WindowBehaviourOptions } from "./window-options";
import { messageKey, newestCovering, type SummarizeRequest } from "./summary-records";

/** Summaries read first on each turn (the newest); all of them only when none of these ends in the history. */
const NEWEST_SUMMARIES = 4;

/** Options of `SummaryMemory` (docs/context-strategies.md). */
export interface SummaryMemoryOptions extends WindowBehaviourOptions {
  /**
   * Summarise once the history not yet covered by a summary is longer than this many messages
   * (or turns, with `countTurns`). @default 20
   */
  summarizeThreshold?: number;
  /** Messages kept verbatim after the summary, in whole turns (the latest turn always). @default 6 */
  recentMessages?: number;
  /**
   * Count in turns (a user message and everything that answers it) instead of messages:
   * `summarizeThreshold` is then a number of turns, and `recentTurns` the earlier turns kept
   * verbatim beside the current one. `new SummaryMemory(10, 4)` is
   * `{ countTurns: true, summarizeThreshold: 10, recentTurns: 4 }`. @default false
   */
  countTurns?: boolean;
  /** With `countTurns`: earlier turns kept verbatim after the summary, beside the current turn. @default 3 */
  recentTurns?: number;
  /**
   * The model that writes summaries: a `"provider/model"` string (e.g. `"openai/gpt-4o-mini"`,
   * resolved by the same registry as the agent's `model`), a `LanguageModel` or an AI SDK
   * provider's model. @default the agent's model
   */
  model?: string | LanguageModel | AISDKLanguageModel;
  /** Longest summary accepted, in tokens; a longer answer is rejected and the turn falls back. @default 600 */
  maxSummaryTokens?: number;
  /** Token budget of the messages sent after the summary, and of the fallback window. @default 4000 */
  maxTokens?: number;
  /** How long the summariser may take before the turn falls back. @default 30000 */
  timeoutMs?: number;
  /** Characters of digest given to one summariser call; a longer backlog is summarised over several turns. @default 60000 */
  maxDigestLength?: number;
}

/**
 * `summary`: older turns are condensed into a summary that reaches the model inside the system
 * prompt; the most recent turns are sent verbatim. Summaries are records (what they cover, which
 * model, when) kept in the store (`saveSummary` / `getSummaries`, or an in-process fallback for
 * stores without them), committed only after the summariser succeeded, and extended
 * incrementally: each call summarises only the turns not covered yet, together with the previous
 * summary. When the summariser fails, times out or answers too long, the turn falls back to a
 * token window (with the previous summary, if any) and `context.onError` says why; nothing
 * stored is touched. A summary the store fails to save still serves the turn (the next turn
 * summarises again), except one refused because the run lost its session lock
 * (`SessionLockLostError`): the run has lost its session, so `apply` throws and the run fails, as
 * at a refused append; nothing is lost (its messages are stored, the summary is derived from them
 * and the next run writes it again).
 */
export class SummaryMemory implements IMemoryStrategy {
  readonly name: string = "summary";
  readonly summarizeThreshold: number;
  /** Messages kept verbatim (counting messages); with `unit: "turns"`, see `recentTurns`. */
  readonly recentMessages: number;
  /** What `summarizeThreshold` and the recent part count. */
  readonly unit: "messages" | "turns";
  /** Earlier turns kept verbatim beside the current one, when counting turns. */
  readonly recentTurns: number | undefined;
  readonly maxSummaryTokens: number;
  readonly maxTokens: number;
  private readonly model: LanguageModel | undefined;
  private readonly timeoutMs: number;
  private readonly maxDigestLength: number;
  private readonly behaviour: Pick<WindowLimits, "stepTurns" | "maxToolResultLength">;
  /** Summaries of runs that have no store in their context, per session. */
  private readonly localSummaries = new Map<string, SummaryRecord[]>();
  /** Stands for "no store" as a key of `failedAt`. */
  private readonly noStore: object = Object.freeze({});
  /** History length at the last failed summary, per store (or `noStore`) and session: retry only after it grew. */
  private readonly failedAt = new WeakMap<object, Map<string, number>>();

  /**
   * `new SummaryMemory(summarizeAfterTurns, recentTurns)` (the AgentCore document's form): summarise
   * once more than `summarizeAfterTurns` turns are not covered by a summary, keeping `recentTurns`
   * earlier turns verbatim beside the current one. The options form counts messages unless
   * `countTurns: true`.
   */
  constructor(summarizeAfterTurns?: number, recentTurns?: number);
  constructor(options?: SummaryMemoryOptions);
  constructor(first: number | SummaryMemoryOptions = {}, keepRecent?: number) {
    const options: SummaryMemoryOptions =
      typeof first === "number"
        ? {
            countTurns: true,
            summarizeThreshold: first,
            ...(keepRecent === undefined ? {} : { recentTurns: keepRecent }),
          }
        : first;
    this.unit = options.countTurns === true ? "turns" : "messages";
    this.summarizeThreshold = integerOption(options.summarizeThreshold, "summarizeThreshold", 20)!;
    const recentDefault = Math.max(1, Math.min(this.unit === "turns" ? 3 : 6, this.summarizeThreshold - 1));
    this.recentTurns =
      this.unit === "turns" ? integerOption(options.recentTurns, "recentTurns", recentDefault)! : undefined;
    this.recentMessages = integerOption(options.recentMessages, "recentMessages", recentDefault)!;
    const recent = this.recentTurns ?? this.recentMessages;
    const recentName = this.unit === "turns" ? "recentTurns" : "recentMessages";
    if (this.summarizeThreshold < 2 || recent >= this.summarizeThreshold) {
      // Otherwise the recent part alone would pass the threshold and every turn would summarise again.
      throw new InvalidArgumentError({
        argument: recentName,
        value: recent,
        message: `${recentName} (${recent}) must be smaller than summarizeThreshold (${this.summarizeThreshold}), and summarizeThreshold at least 2.`,
      });
    }
    this.maxSummaryTokens = integerOption(options.maxSummaryTokens, "maxSummaryTokens", 600)!;
    this.maxTokens = integerOption(options.maxTokens, "maxTokens", 4000)!;
    this.timeoutMs = integerOption(options.timeoutMs, "timeoutMs", 30_000)!;
    this.maxDigestLength = integerOption(options.maxDigestLength, "maxDigestLength", 60_000)!;
    this.model = options.model === undefined ? undefined : resolveModelOption(options.model, "model");
    this.behaviour = resolveBehaviour(options, undefined);
  }

  /**
   * The tail the agent reads first (see `IMemoryStrategy.historyLimit`): what a summary leaves
   * uncovered between two summaries, with room to spare. The whole history is read only when no
   * summary covers up to that tail (the first summary of a long session, or a summariser that
   * kept failing).
   */
  get historyLimit(): number {
    // A turn is at least two messages (often more, with tool calls).
    return (this.unit === "turns" ? 8 : 2) * this.summarizeThreshold + 16;
  }

  async apply(history: readonly AgentMessage[], context: MemoryStrategyContext): Promise<MemoryStrategyResult> {
    const store = context.store;
    let pinnedEnd = 0;
    while (pinnedEnd < history.length && history[pinnedEnd]!.role === "system") pinnedEnd++;

    const offset =
      context.historyOffset !== undefined && Number.isInteger(context.historyOffset) && context.historyOffset > 0
        ? context.historyOffset
        : 0;
    let previous: SummaryRecord | undefined;
    let coveredEnd = pinnedEnd;
    try {
      // The newest summary almost always ends inside this history: read the last few records, and
      // every record (a long session holds thousands) only when none of them does.
      const read = (options?: { last: number }) =>
        store
          ? backendOf(store).getSummaries(context.sessionId, options)
          : Promise.resolve(this.localSummaries.get(context.sessionId) ?? []);
      let records = await read({ last: NEWEST_SUMMARIES });
      let found = newestCovering(records, history, pinnedEnd, offset);
      if (!found && records.length >= NEWEST_SUMMARIES) {
        records = await read();
        found = newestCovering(records, history, pinnedEnd, offset);
      }
      if (found) ({ record: previous, end: coveredEnd } = found);
    } catch (error) {
      reportSummarizationFailure(
        context,
        "store",
        `Could not read the summaries of session "${context.sessionId}": ${errorText(error)}`,
        error,
      );
    }

    // A tail without the end of the newest summary: the summary (or the backlog to summarise)
    // lies further back, so ask for more history before summarising anything.
    if (context.partialHistory === true && !previous) {
      const profile = tokenizerFor(context.model);
      const window = selectWindow(
        history,
        { maxTokens: this.maxTokens, ...this.behaviour },
        { profile, calibration: validCalibration(context.calibration) },
      );
      return { messages: window.messages, dropped: window.dropped, budget: this.maxTokens, needsEarlierHistory: true };
    }

    let summary = previous?.content;
    let summaryId = previous?.id;
    const uncovered = history.length - coveredEnd;
    // Positions in the stored session (the history may be a tail starting at `offset`).
    const seen = offset + history.length;
    const failures = this.failedAt.get(store ?? this.noStore) ?? new Map<string, number>();
    const lastFailure = failures.get(context.sessionId);
    // After a failure, wait for summarizeThreshold - recentMessages more messages before calling the
    // summariser again (a provider that is down would otherwise cost a timeout on every request).
    const backingOff =
      lastFailure !== undefined &&
      this.grownSince(history, offset, lastFailure) <
        this.summarizeThreshold - (this.recentTurns ?? this.recentMessages);
    if (
      (this.unit === "turns" ? groupTurns(history, coveredEnd).length : uncovered) > this.summarizeThreshold &&
      !backingOff
    ) {
      const toEnd = this.summaryEnd(history, coveredEnd);
      if (toEnd > coveredEnd) {
        const written = await this.summarize({
          history,
          pinnedEnd,
          offset,
          from: coveredEnd,
          to: toEnd,
          previous,
          context,
          store,
        });
        if (written) {
          summary = written.content;
          summaryId = written.id;
          coveredEnd = toEnd;
          failures.delete(context.sessionId);
        } else {
          failures.set(context.sessionId, seen);
          this.failedAt.set(store ?? this.noStore, failures);
        }
      }
    }

    // The window: pinned system messages and what the summary does not cover, under the budget
    // left after the summary (at least half of maxTokens). The same engine is the fallback.
    const profile = tokenizerFor(context.model);
    const calibration = validCalibration(context.calibration);
    if (summary) await loadEncodingAsync(profile.encoding); // a no-op once loaded; the edge loads only this way
    const summaryTokens = summary
      ? Math.ceil(estimateTokens(summary, context.model ? { model: context.model } : {}) * calibration)
      : 0;
    const budget = Math.max(Math.floor(this.maxTokens / 2), this.maxTokens - summaryTokens);
    const rest =
      pinnedEnd === 0 && coveredEnd === 0 ? history : [...history.slice(0, pinnedEnd), ...history.slice(coveredEnd)];
    const window = selectWindow(rest, { maxTokens: budget, ...this.behaviour }, { profile, calibration });
    return {
      messages: window.messages,
      dropped: [...history.slice(pinnedEnd, coveredEnd), ...window.dropped],
      ...(summary && summaryId ? { summaryId } : {}),
      ...(summary ? { summary, summarizedCount: Math.max(0, coveredEnd - pinnedEnd) } : {}),
      ...(window.tokens === undefined ? {} : { tokens: window.tokens + summaryTokens }),
      budget: this.maxTokens,
    };
  }

  /** Messages (or, counting turns, user messages) at stored positions from `since` on. */
  private grownSince(history: readonly AgentMessage[], offset: number, since: number): number {
    if (this.unit === "messages") return offset + history.length - since;
    return history.slice(Math.max(0, since - offset)).filter((message) => message.role === "user").length;
  }

  /** Where the next summary should end: before the recent whole turns (≤ recentMessages, or recentTurns and the current one; at least one turn). */
  private summaryEnd(history: readonly AgentMessage[], coveredEnd: number): number {
    const turns = groupTurns(history, coveredEnd);
    if (turns.length < 2) return coveredEnd;
    let keepFrom = turns.length - 1;
    if (this.recentTurns !== undefined) keepFrom = Math.max(0, turns.length - 1 - this.recentTurns);
    else while (keepFrom > 1 && history.length - turns[keepFrom - 1]!.start <= this.recentMessages) keepFrom--;
    if (keepFrom === 0) return coveredEnd;
    // Bound one call's input: summarise the oldest turns up to maxDigestLength, the rest later.
    let end = coveredEnd;
    let length = 0;
    for (let index = 0; index < keepFrom; index++) {
      const turn = turns[index]!;
      length += summaryDigest(history.slice(turn.start, turn.end)).length;
      if (index > 0 && length > this.maxDigestLength) break;
      end = turn.end;
    }
    return end;
  }

  private async summarize({
    history,
    pinnedEnd,
    offset,
    from,
    to,
    previous,
    context,
    store,
  }: SummarizeRequest): Promise<SummaryRecord | undefined> {
    const model = this.model ?? context.model;
    if (!model) {
      reportSummarizationFailure(
        context,
        "no-model",
        "The summary strategy has no model: pass { model } to SummaryMemory or run it through an Agent.",
      );
      return undefined;
    }
    const answer = await callSummarizer({
      model,
      previous: previous?.content,
      turns: history.slice(from, to),
      context,
      maxSummaryTokens: this.maxSummaryTokens,
      timeoutMs: this.timeoutMs,
    });
    if (!answer) return undefined;
    const { text, tokenCount } = answer;
    const modelName = `${model.provider}/${model.modelId}`;
    const first = history[pinnedEnd]!;
    const last = history[to - 1]!;
    const record: SummaryRecord = {
      id: globalThis.crypto.randomUUID(),
      content: text,
      fromMessageId: previous?.fromMessageId ?? messageKey(first, offset + pinnedEnd, pinnedEnd),
      toMessageId: messageKey(last, offset + to - 1, pinnedEnd),
      messageCount: offset + to - pinnedEnd,
      model: modelName,
      createdAt: Date.now(),
      tokenCount,
    };
    try {
      if (store) await backendOf(store).saveSummary(context.sessionId, record);
      else this.localSummaries.set(context.sessionId, [...(this.localSummaries.get(context.sessionId) ?? []), record]);
    } catch (error) {
      // Another run holds the session now: this run must write nothing more, and must not go on.
      if (SessionLockLostError.isInstance(error)) throw error;
      // The summary is good for this turn; the next turn summarises again.
      reportSummarizationFailure(
        context,
        "store",
        `Could not save the summary of session "${context.sessionId}": ${errorText(error)}`,
        error,
        modelName,
      );
    }
    return record;
  }
}
