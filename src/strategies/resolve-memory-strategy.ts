import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { UnsupportedFeatureError } from "../errors/unsupported-feature-error";
import { FullMemory } from "./full-memory";
import type { IMemoryStrategy, MemoryStrategyName } from "./memory-strategy";

export interface StrategyShortcutOptions {
  /** sliding_window: turns kept. @default 20 */
  maxMessages?: number;
  /** token_window: history budget in tokens. @default 4000 */
  maxTokens?: number;
}

const names: MemoryStrategyName[] = ["sliding_window", "token_window", "summary", "full"];

/** Turns the `memory` option (a name or an instance) into a strategy. */
export function resolveMemoryStrategy(
  memory: MemoryStrategyName | IMemoryStrategy | undefined,
  _options: StrategyShortcutOptions = {},
): IMemoryStrategy {
  if (memory === undefined || memory === "full") return new FullMemory();
  if (typeof memory === "object" && memory !== null && typeof memory.apply === "function") return memory;
  if (typeof memory === "string" && names.includes(memory)) {
    throw new UnsupportedFeatureError({
      feature: `memory:${memory}`,
      message: `The "${memory}" memory strategy is not available in this version of agentcore yet; use "full" or pass your own IMemoryStrategy.`,
    });
  }
  throw new InvalidArgumentError({
    argument: "memory",
    value: memory,
    message: `memory must be one of ${names.map((name) => `"${name}"`).join(", ")} or an IMemoryStrategy, got ${JSON.stringify(memory)}.`,
  });
}
