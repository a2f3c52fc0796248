import type { AgentMessage } from "../messages/agent-message";
import { messageTokenBound, rawMessageTokens } from "../tokens/token-count-cache";
import { isEncodingLoaded, type TokenizerProfile } from "../tokens/tokenizer";
import { cutToolResult } from "./cut-tool-result";
import { groupSteps, TailTurns, type TurnRange } from "./group-turns";

/** What the window engine is asked to fit. */
export interface WindowLimits {
  /** Most turns kept. */
  maxTurns?: number;
  /** Most messages kept, in whole turns (at least the latest turn). */
  maxMessages?: number;
  /** Token budget of the window's messages (after the model factor and calibration). */
  maxTokens?: number;
  /** Move the window's start in steps of this many turns (1: every turn). */
  stepTurns: number;
  /** Tool results longer than this reach the model cut. */
  maxToolResultLength: number;
}

export interface WindowCounting {
  profile: TokenizerProfile;
  /** Calibration ratio of the model (provider count / our estimate), 1 when unknown. */
  calibration: number;
}

/** Where the history given to the engine sits in the stored session. */
export interface WindowPlacement {
  /** Position in the session of `history[0]` (0: the session's start). */
  offset: number;
  /** Older messages exist that the history leaves out (a tail read). */
  partial: boolean;
}

const WHOLE_SESSION: WindowPlacement = { offset: 0, partial: false };

export interface SelectedWindow {
  messages: AgentMessage[];
  dropped: AgentMessage[];
  /** The history was partial and the window reached its first turn: older turns may fit too. */
  needsEarlierHistory?: boolean;
  /**
   * Estimated tokens of `messages` (scaled), when a token budget applied and they were counted
   * (not when, before the tokenizer was loaded, the whole history fitted by its byte bound).
   */
  tokens?: number;
  /** True when even the latest turn alone was over the budget and was trimmed inside. */
  overBudget?: boolean;
}

/**
 * The one windowing engine behind every built-in strategy. Keeps leading system messages, then
 * the most recent whole turns within `maxTurns` and `maxTokens`; moves the start in steps of
 * `stepTurns` turns so the prompt prefix stays the same for several requests; sends large tool
 * results cut. When the latest turn alone is over the token budget, it keeps that turn's user
 * message and its newest steps (an assistant message with its tool results, whole) that fit,
 * always at least the newest step, so the pairing rule holds.
 *
 * Stable-prefix steps are anchored to positions in the stored session (`placement.offset` plus
 * the index), not to indexes of the array given, so a tail of the history gives the same window
 * as the whole history whenever the tail holds the window (and says `needsEarlierHistory` when it
 * may not).
 *
 * Never mutates `history`; the returned arrays are new.
 */
export function selectWindow(
  history: readonly AgentMessage[],
  limits: WindowLimits,
  counting: WindowCounting,
  placement: WindowPlacement = WHOLE_SESSION,
): SelectedWindow {
  let pinnedEnd = 0;
  while (pinnedEnd < history.length && history[pinnedEnd]!.role === "system") pinnedEnd++;
  const turns = new TailTurns(history, pinnedEnd);
  const scale = counting.profile.factor * counting.calibration;
  const encoding = counting.profile.encoding;
  const sent = (message: AgentMessage) => cutToolResult(message, limits.maxToolResultLength);
  const budget = limits.maxTokens;
  const rawBudget = budget === undefined ? Infinity : budget / scale;
  // Until the tokenizer is loaded, a history that fits the budget even by its byte bound is kept
  // whole without counting: the same window, and no cold tokenizer load for a short conversation.
  const bounded =
    budget !== undefined &&
    !isEncodingLoaded(encoding) &&
    fitsByBound(history, sent, rawBudget, counting.profile.imageRule);
  const imageRule = counting.profile.imageRule;
  const measure = bounded
    ? (message: AgentMessage) => messageTokenBound(message, imageRule)
    : (message: AgentMessage) => rawMessageTokens(message, encoding, imageRule);
  const cost = (from: number, to: number) => {
    let tokens = 0;
    for (let index = from; index < to; index++) tokens += measure(sent(history[index]!));
    return tokens;
  };
  const pinnedTokens = budget === undefined ? 0 : cost(0, pinnedEnd);

  const turnCount = turns.length;
  const minStartByTurns = limits.maxTurns === undefined ? 0 : Math.max(0, turnCount - limits.maxTurns);
  let start = turnCount; // first turn kept
  let used = pinnedTokens;
  if (budget === undefined && limits.maxMessages === undefined) {
    start = minStartByTurns;
  } else {
    const maxMessages = limits.maxMessages ?? Infinity;
    while (start > minStartByTurns) {
      const turn = turns.at(start - 1);
      if (start < turnCount && history.length - turn.start > maxMessages) break;
      const turnTokens = budget === undefined ? 0 : cost(turn.start, turn.end);
      if (used + turnTokens > rawBudget) break;
      used += turnTokens;
      start--;
    }
  }

  if (start >= turnCount && turnCount > 0) {
    return trimInsideLatestTurn(
      history,
      pinnedEnd,
      turns.at(turnCount - 1),
      rawBudget - pinnedTokens,
      pinnedTokens,
      sent,
      counting.profile,
      scale,
    );
  }

  // A partial history whose first turn fits: older turns might fit as well.
  const needsEarlierHistory = placement.partial && start === 0;

  // Stable prefixes: only start at the first turn at or after a multiple of 2 × stepTurns stored
  // messages (about stepTurns turns of chat), which keeps fewer turns but leaves the prefix
  // unchanged for several requests. Never more than stepTurns - 1 turns are given up for it.
  if (limits.stepTurns > 1 && start > 0) {
    const quantum = 2 * limits.stepTurns;
    const threshold = Math.ceil((placement.offset + turns.at(start).start) / quantum) * quantum;
    let stepped = start;
    while (stepped < turnCount - 1 && placement.offset + turns.at(stepped).start < threshold) stepped++;
    if (stepped - start >= limits.stepTurns) stepped = start;
    const fitting = turnCount - start;
    const kept = turnCount - stepped;
    // Under a token or message budget, never give up more than half of what fits.
    if ((budget === undefined && limits.maxMessages === undefined) || kept * 2 >= fitting) {
      if (budget !== undefined) {
        for (let index = start; index < stepped; index++) used -= cost(turns.at(index).start, turns.at(index).end);
      }
      start = stepped;
    }
  }

  const firstKept = turnCount === 0 ? history.length : turns.at(start).start;
  const messages: AgentMessage[] = [];
  for (let index = 0; index < pinnedEnd; index++) messages.push(sent(history[index]!));
  for (let index = firstKept; index < history.length; index++) messages.push(sent(history[index]!));
  return {
    messages,
    dropped: history.slice(pinnedEnd, firstKept),
    ...(budget === undefined || bounded ? {} : { tokens: Math.ceil(used * scale) }),
    ...(needsEarlierHistory ? { needsEarlierHistory } : {}),
  };
}

function fitsByBound(
  history: readonly AgentMessage[],
  sent: (message: AgentMessage) => AgentMessage,
  rawBudget: number,
  imageRule: TokenizerProfile["imageRule"],
): boolean {
  let bound = 0;
  for (const message of history) {
    bound += messageTokenBound(sent(message), imageRule);
    if (bound > rawBudget) return false;
  }
  return true;
}

function trimInsideLatestTurn(
  history: readonly AgentMessage[],
  pinnedEnd: number,
  turn: TurnRange,
  rawBudget: number,
  pinnedTokens: number,
  sent: (message: AgentMessage) => AgentMessage,
  profile: TokenizerProfile,
  scale: number,
): SelectedWindow {
  const steps = groupSteps(history, turn);
  const stepCost = (step: TurnRange) => {
    let tokens = 0;
    for (let index = step.start; index < step.end; index++)
      tokens += rawMessageTokens(sent(history[index]!), profile.encoding, profile.imageRule);
    return tokens;
  };
  const anchored = history[turn.start]!.role === "user" && steps.length > 1;
  const kept: TurnRange[] = [];
  let used = anchored ? stepCost(steps[0]!) : 0;
  const firstDroppable = anchored ? 1 : 0;
  for (let index = steps.length - 1; index >= firstDroppable; index--) {
    const tokens = stepCost(steps[index]!);
    // The newest step is always sent: the model must see the latest results.
    if (kept.length > 0 && used + tokens > rawBudget) break;
    used += tokens;
    kept.unshift(steps[index]!);
  }
  if (anchored) kept.unshift(steps[0]!);
  const keptIndexes = new Set<number>();
  for (const step of kept) for (let index = step.start; index < step.end; index++) keptIndexes.add(index);
  const messages: AgentMessage[] = [];
  const dropped: AgentMessage[] = [];
  for (let index = 0; index < pinnedEnd; index++) messages.push(sent(history[index]!));
  for (let index = pinnedEnd; index < history.length; index++) {
    if (keptIndexes.has(index)) messages.push(sent(history[index]!));
    else dropped.push(history[index]!);
  }
  return { messages, dropped, tokens: Math.ceil((used + pinnedTokens) * scale), overBudget: true };
}
