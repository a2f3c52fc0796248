import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { FullMemory } from "./full-memory";
import type { IMemoryStrategy, MemoryStrategyName } from "./memory-strategy";
import { SlidingWindowMemory } from "./sliding-window";
import { SummaryMemory } from "./summary-memory";
import { TokenWindowMemory } from "./token-window";

export interface StrategyShortcutOptions {
  /** sliding_window: turns kept. @default 20 */
  maxMessages?: number;
  /** token_window: history budget in tokens (summary: budget of its fallback window). @default 4000 */
  maxTokens?: number;
}

const names: MemoryStrategyName[] = ["sliding_window", "token_window", "summary", "full"];

/** Turns the `memory` option (a name or an instance) into a strategy. */
export function resolveMemoryStrategy(
  memory: MemoryStrategyName | IMemoryStrategy | undefined,
  options: StrategyShortcutOptions = {},
): IMemoryStrategy {
  if (memory === undefined || memory === "full") return new FullMemory();
  if (typeof memory === "object" && memory !== null && typeof memory.apply === "function") return memory;
  if (memory === "sliding_window") {
    return new SlidingWindowMemory({
      ...(options.maxMessages === undefined ? {} : { maxMessages: options.maxMessages }),
    });
  }
  if (memory === "token_window") {
    return new TokenWindowMemory({ ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }) });
  }
  if (memory === "summary") {
    return new SummaryMemory({ ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }) });
  }
  throw new InvalidArgumentError({
    argument: "memory",
    value: memory,
    message: `memory must be one of ${names.map((name) => `"${name}"`).join(", ")} or an IMemoryStrategy, got ${JSON.stringify(memory)}.`,
  });
}
