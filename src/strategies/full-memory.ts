import type { AgentMessage } from "../messages/agent-message";
import { cutToolResult } from "./cut-tool-result";
import type { IMemoryStrategy, MemoryStrategyResult } from "./memory-strategy";
import { resolveMaxToolResultLength } from "./window-options";

/** Options of {@link FullMemory}. */
export interface FullMemoryOptions {
  /**
   * Tool results longer than this many characters reach the model cut (head and tail kept, with
   * a marker saying how much was left out); the store keeps them whole. `Infinity` turns it off.
   * @default 20000
   */
  maxToolResultLength?: number;
}

/**
 * Sends the whole history every time. Right for short conversations and tests. Like every
 * strategy, it cuts oversized tool results in what the model receives (never in the store).
 */
export class FullMemory implements IMemoryStrategy {
  readonly name = "full";
  private readonly maxToolResultLength: number;

  constructor(options: FullMemoryOptions = {}) {
    this.maxToolResultLength = resolveMaxToolResultLength(options.maxToolResultLength);
  }

  apply(history: readonly AgentMessage[]): MemoryStrategyResult {
    return { messages: history.map((message) => cutToolResult(message, this.maxToolResultLength)), dropped: [] };
  }
}
