import { integerOption } from "../errors/check-option";
import type { AgentMessage } from "../messages/agent-message";
import type { MemoryStore } from "../stores/memory-store";
import { attachStorage, withConversationMemory } from "./conversation-memory";
import { ConversationStorage } from "./conversation-storage";
import type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyResult } from "./memory-strategy";
import { applyWindow, TailSizer, resolveBehaviour, type WindowBehaviourOptions } from "./window-options";
import type { WindowLimits } from "./select-window";

export interface SlidingWindowMemoryOptions extends WindowBehaviourOptions {
  /** Turns kept (a turn: the user message, tool calls and results, the answer). @default 20 */
  maxMessages?: number;
  /** Same as `maxMessages` (the name of the second design, docs/architecture.md). */
  maxTurns?: number;
  /** Also keep the window under this many tokens, dropping whole turns. No token limit by default. */
  maxTokens?: number;
  /** Where `write` keeps conversations when the memory is used on its own (AgentLIB's API). @default new InMemoryStore() */
  store?: MemoryStore;
}

/**
 * `sliding_window`: the last `maxMessages` turns (default 20), whole, optionally also under a
 * token budget. With stable prefixes on (the default) the start moves a quarter of the window at
 * a time, so the window holds between 3/4 and all of `maxMessages` turns.
 */
export class SlidingWindowMemory extends withConversationMemory(class {}) implements IMemoryStrategy {
  readonly name: string = "sliding_window";
  protected readonly limits: WindowLimits;
  private readonly tailSizer: TailSizer;

  constructor(options: number | SlidingWindowMemoryOptions = {}) {
    super();
    const resolved = typeof options === "number" ? { maxMessages: options } : options;
    const maxTurns = integerOption(
      resolved.maxTurns ?? resolved.maxMessages,
      resolved.maxTurns === undefined ? "maxMessages" : "maxTurns",
      20,
    )!;
    const maxTokens = integerOption(resolved.maxTokens, "maxTokens", undefined);
    this.limits = {
      maxTurns,
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...resolveBehaviour(resolved, maxTurns),
    };
    this.tailSizer = new TailSizer(this.limits);
    attachStorage(this, new ConversationStorage(resolved.store, (history) => applyWindow(history, {}, this.limits)));
  }

  /** The tail the agent reads first (see `IMemoryStrategy.historyLimit`); a longer one when the window needs it. */
  get historyLimit(): number {
    return this.tailSizer.historyLimit;
  }

  apply(history: readonly AgentMessage[], context: MemoryStrategyContext = { sessionId: "" }): MemoryStrategyResult {
    const result = applyWindow(history, context, this.limits);
    this.tailSizer.observe(result);
    return result;
  }
}
