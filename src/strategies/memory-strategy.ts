import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModel } from "../models/language-model";
import type { MemoryStore } from "../stores/memory-store";

/** What a strategy knows about the request it fits a window for. */
export interface MemoryStrategyContext {
  sessionId: string;
  /** The system prompt the model will receive (agent prompt, facts, recalled memories). */
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
}

/** What a strategy returns: the window to send, and what it left out. */
export interface MemoryStrategyResult {
  /** The messages to send, oldest first, keeping the pairing rule. */
  messages: AgentMessage[];
  /** Stored messages that were left out of the window (never deleted from the store). */
  dropped: AgentMessage[];
  /** A summary of the dropped turns, rendered into the system prompt. */
  summary?: string;
  /** Estimated tokens of `messages` (after model factor and calibration), when the strategy counted them. */
  tokens?: number;
  /** The token budget the window was fitted to, when the strategy has one. */
  budget?: number;
}

/**
 * Decides what part of a long conversation the model sees. Pure with respect to stored
 * history: `apply` never changes `history` or the store's messages.
 */
export interface IMemoryStrategy {
  readonly name: string;
  /**
   * The most recent stored messages this strategy can ever use. When set, the agent reads only
   * that tail from stores that have `getRecentMessages` (instead of the whole history), so a
   * turn's cost does not grow with the session. Leave it undefined to receive everything.
   */
  readonly historyLimit?: number;
  apply(history: readonly AgentMessage[], context: MemoryStrategyContext): MemoryStrategyResult | Promise<MemoryStrategyResult>;
}

/** The names accepted by the `memory` option. */
export type MemoryStrategyName = "sliding_window" | "token_window" | "summary" | "full";
