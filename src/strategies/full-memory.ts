import type { AgentMessage } from "../messages/agent-message";
import type { IMemoryStrategy, MemoryStrategyResult } from "./memory-strategy";

/** Sends the whole history every time. Right for short conversations and tests. */
export class FullMemory implements IMemoryStrategy {
  readonly name = "full";

  apply(history: readonly AgentMessage[]): MemoryStrategyResult {
    return { messages: [...history], dropped: [] };
  }
}
