import type { AgentMessage } from "../messages/agent-message";

/** One memory a provider recalled. */
export interface MemoryRecord {
  /** Unique within the provider. */
  id: string;
  content: string;
  /** Relevance, higher is better; scale is the provider's. */
  score?: number;
  /** Id of the stored message this record came from, when it came from one. */
  messageId?: string;
  metadata?: Record<string, unknown>;
}

/** A stored memory with its metadata (docs/architecture.md), as `entries()` lists it. */
export interface MemoryEntry extends MemoryRecord {
  /** When the memory was written (ms since the epoch). */
  createdAt: number;
  sessionId?: string;
  userId?: string;
  /** The `name` of the agent whose turn wrote it. */
  agentName?: string;
  /** Tags given at write time. */
  tags: string[];
  /** Role of the message it came from. */
  role?: AgentMessage["role"];
}

/** The scope a read, `clear` or `entries` call applies to. */
export interface MemoryScope {
  sessionId?: string;
  userId?: string;
}

export interface MemoryReadOptions extends MemoryScope {
  /** What to look for: the current input. Without it, providers return their most recent memories. */
  query?: string;
  /** Most records to return. @default the provider's (5 for the built-in ones) */
  limit?: number;
  /** Only memories written with every one of these tags. */
  tags?: string[];
  abortSignal?: AbortSignal;
}

export interface MemoryWriteOptions extends MemoryScope {
  tags?: string[];
  agentName?: string;
  abortSignal?: AbortSignal;
}

/**
 * A source of long-term, semantic memory (Mem0, a vector database, the built-in index).
 * The agent calls `read` with the current input before the model call and `write` with each
 * finished turn; a provider that throws or passes its timeout degrades the turn (`memory:error`).
 */
export interface MemoryProvider {
  readonly type: string;
  read(options: MemoryReadOptions): Promise<MemoryRecord[]>;
  write(messages: AgentMessage[], options: MemoryWriteOptions): Promise<void>;
  /** Forgets the memories of a scope (all of them without one). */
  clear?(options?: MemoryScope): Promise<void>;
  /** Lists the memories of a scope (all of them without one), oldest first. */
  entries?(options?: MemoryScope): Promise<MemoryEntry[]>;
}
