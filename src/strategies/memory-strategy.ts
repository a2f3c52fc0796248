import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModel, LanguageModelUsage } from "../models/language-model";
import type { MemoryStore } from "../stores/memory-store";

/** What a strategy knows about the request it fits a window for. */
export interface MemoryStrategyContext {
  sessionId: string;
  /** The agent's system prompt (its instructions; facts, a summary and recalled memories are added to the request after the window is fitted). */
  system?: string;
  /** The model that will be called: its id picks the tokenizer. */
  model?: LanguageModel;
  /** The session's store, for strategies that keep records (summaries). */
  store?: MemoryStore;
  /** Aborts with the run. */
  abortSignal?: AbortSignal;
  /**
   * Ratio of the provider's reported input tokens to agentcore's estimate for this model, learnt
   * from earlier requests (1 or undefined: not calibrated). Token budgets are checked against
   * estimates multiplied by it.
   */
  calibration?: number;
  /** Reports a degraded step (a summariser that failed) without failing the turn. */
  onError?: (error: unknown) => void;
  /**
   * Reports what a model call of the strategy's own spent (a summariser's), with the model that
   * made it: the run counts it in the session's usage ledger (docs/threads.md).
   */
  onUsage?: (usage: LanguageModelUsage, model: LanguageModel) => void;
  /**
   * Position in the stored session of `history[0]` (0 or undefined: the history starts at the
   * session's start). Set when the agent read only a tail; windows anchor their stable-prefix
   * steps to these positions, so the window is the same whether they see a tail or everything.
   */
  historyOffset?: number;
  /**
   * True when `history` is only the most recent part of the session (older messages are stored
   * but were not read). A strategy whose window reaches `history[0]` answers
   * `needsEarlierHistory` and is called again with a longer tail.
   */
  partialHistory?: boolean;
}

/** What a strategy returns: the window to send, and what it left out. */
export interface MemoryStrategyResult {
  /** The messages to send, oldest first, keeping the pairing rule. */
  messages: AgentMessage[];
  /** Stored messages that were left out of the window (never deleted from the store). */
  dropped: AgentMessage[];
  /** A summary of the dropped turns, rendered into the system prompt. */
  summary?: string;
  /** Id of the stored summary record `summary` is (`SummaryRecord.id`), when it is one; context reports reference it. */
  summaryId?: string;
  /** How many of `dropped` (its first ones) the summary covers; the rest were dropped for the window's limits. */
  summarizedCount?: number;
  /** Estimated tokens of `messages` (after model factor and calibration), when the strategy counted them. */
  tokens?: number;
  /** The token budget the window was fitted to, when the strategy has one. */
  budget?: number;
  /**
   * The history was partial (`context.partialHistory`) and the window reached its first message,
   * so older messages may belong in it too: the agent reads a tail twice as long (up to the whole
   * session) and calls `apply` again. Never set for a complete history.
   */
  needsEarlierHistory?: boolean;
}

/**
 * Decides what part of a long conversation the model sees. Pure with respect to stored
 * history: `apply` never changes `history` or the store's messages.
 */
export interface IMemoryStrategy {
  readonly name: string;
  /**
   * Read only a tail: the agent first reads this many of the most recent stored messages (from
   * stores that have `getMessageTail`; others give the whole history), and while `apply` answers
   * `needsEarlierHistory` it reads twice as many, up to the whole session. So a turn's cost does
   * not grow with the session. Leave it undefined to receive the whole history every time.
   *
   * The tail never starts inside a turn: a turn cut at its start is left out, so the history
   * given to `apply` begins with a user message.
   */
  readonly historyLimit?: number;
  apply(
    history: readonly AgentMessage[],
    context: MemoryStrategyContext,
  ): MemoryStrategyResult | Promise<MemoryStrategyResult>;
}

/** The names accepted by the `memory` option. */
export type MemoryStrategyName = "sliding_window" | "token_window" | "summary" | "full";
