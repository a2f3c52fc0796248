import type { AgentMessage } from "../messages/agent-message";
import type { MemoryReadOptions, MemoryScope, MemoryWriteOptions } from "./memory-provider";

/** A message as the AgentLIB document names it: agentcore's `AgentMessage`. */
export type ModelMessage = AgentMessage;

/** Metadata of a stored conversation (the AgentLIB document's `MemoryMetadata`). */
export interface MemoryMetadata {
  createdAt: Date;
  /** When this memory was last read or written. */
  accessedAt?: Date | undefined;
  /** Agent that created this memory. */
  agentName?: string | undefined;
  /** Arbitrary key/value tags for filtering. */
  tags?: Record<string, string> | undefined;
  /** Token count estimate for this entry. */
  tokenCount?: number | undefined;
}

/** One stored conversation, as a conversation memory's `entries()` lists it (the AgentLIB document's `MemoryEntry`). */
export interface MessageMemoryEntry {
  id: string;
  sessionId: string;
  messages: ModelMessage[];
  metadata: MemoryMetadata;
}

/** What the built-in conversation memories list: `accessedAt` is always known. */
export interface StoredMessageMemoryEntry extends MessageMemoryEntry {
  metadata: MemoryMetadata & { accessedAt: Date };
}

/**
 * The AgentLIB document's read/write contract: `read` returns the conversation to continue (messages,
 * oldest first), `write` persists the messages of a finished run. `BufferMemory`,
 * `SlidingWindowMemory`, `SummarizingMemory` and `CompositeMemory` implement it.
 */
export interface MessageMemoryProvider {
  readonly type: string;
  read(options: MemoryReadOptions): Promise<ModelMessage[]>;
  write(messages: ModelMessage[], options: MemoryWriteOptions): Promise<void>;
  clear?(sessionId?: string | MemoryScope): Promise<void>;
  entries?(sessionId?: string | MemoryScope): Promise<MessageMemoryEntry[]>;
}
