import { integerOption } from "../errors/check-option";
import { SlidingWindowMemory } from "./sliding-window";
import { resolveBehaviour, type WindowBehaviourOptions } from "./window-options";

export interface BufferMemoryOptions extends WindowBehaviourOptions {
  /** Messages kept, counted in messages but dropped in whole turns (the latest turn is always kept). @default 40 */
  maxMessages?: number;
  /** Token budget of the history sent. No token limit by default. */
  maxTokens?: number;
}

/**
 * The second design's buffer (docs/architecture.md): the recent history within `maxMessages`
 * messages and `maxTokens` tokens. A thin view of the same window engine as `SlidingWindowMemory`: it
 * counts messages instead of turns, and still keeps or drops whole turns.
 */
export class BufferMemory extends SlidingWindowMemory {
  override readonly name: string = "buffer";

  constructor(options: BufferMemoryOptions = {}) {
    super({ ...options, maxTurns: Number.MAX_SAFE_INTEGER });
    const maxMessages = integerOption(options.maxMessages, "maxMessages", 40)!;
    const maxTokens = integerOption(options.maxTokens, "maxTokens", undefined);
    Object.assign(this.limits, {
      maxTurns: undefined,
      maxMessages,
      maxTokens,
      ...resolveBehaviour(options, Math.max(1, Math.floor(maxMessages / 2))),
    });
  }
}
