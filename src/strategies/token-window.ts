import { integerOption } from "../errors/check-option";
import type { AgentMessage } from "../messages/agent-message";
import type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyResult } from "./memory-strategy";
import type { WindowLimits } from "./select-window";
import { applyWindow, TailSizer, resolveBehaviour, type WindowBehaviourOptions } from "./window-options";

export interface TokenWindowMemoryOptions extends WindowBehaviourOptions {
  /** Token budget of the history sent (messages with their overhead; not the system prompt or tools). @default 4000 */
  maxTokens?: number;
  /** Also keep at most this many turns. No turn limit by default. */
  maxTurns?: number;
}

/**
 * `token_window`: the most recent whole turns that fit `maxTokens` (default 4000), newest first,
 * counted with the model's tokenizer and its calibration.
 *
 * Over budget: when the latest turn alone does not fit, it is trimmed inside: its user message
 * and its newest steps (an assistant message with all its tool results) that fit are kept, the
 * older steps of that turn dropped; the newest step is always sent, so the window can exceed the
 * budget only when the user message plus the newest step alone do.
 */
export class TokenWindowMemory implements IMemoryStrategy {
  readonly name: string = "token_window";
  protected readonly limits: WindowLimits;
  private readonly tailSizer: TailSizer;

  constructor(options: number | TokenWindowMemoryOptions = {}) {
    const resolved = typeof options === "number" ? { maxTokens: options } : options;
    const maxTokens = integerOption(resolved.maxTokens, "maxTokens", 4000)!;
    const maxTurns = integerOption(resolved.maxTurns, "maxTurns", undefined);
    this.limits = {
      maxTokens,
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...resolveBehaviour(resolved, undefined),
    };
    this.tailSizer = new TailSizer(this.limits);
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
