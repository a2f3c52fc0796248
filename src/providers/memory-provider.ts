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

/** A stored memory with its metadata (docs/architecture.md), as the recall providers' `entries()` list it. */
export interface MemoryRecordEntry extends MemoryRecord {
  /** When the memory was written (ms since the epoch). */
  createdAt: number;
  sessionId?: string;
  userId?: string;
  /** The `name` of the agent whose turn wrote it. */
  agentName?: string;
  /** Tags given at write time (a key/value tag `{ topic: "billing" }` reads `"topic=billing"`). */
  tags: string[];
  /** Role of the message it came from. */
  role?: AgentMessage["role"];
}

/**
 * Tags of a memory: a list of labels, or key/value tags (AgentLIB's `Record<string, string>`).
 * Providers that keep lists store the key/value tag `{ topic: "billing" }` as `"topic=billing"`.
 */
export type MemoryTags = readonly string[] | Readonly<Record<string, string>>;

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
  /**
   * Only memories written with every one of these tags: a list, or key/value tags
   * (`{ topic: "billing" }` matches memories written with that key and value).
   */
  tags?: MemoryTags;
  abortSignal?: AbortSignal;
}

export interface MemoryWriteOptions extends MemoryScope {
  /** Tags kept with what is written: a list, or key/value tags such as `{ category: "billing" }`. */
  tags?: MemoryTags;
  agentName?: string;
  abortSignal?: AbortSignal;
}

/**
 * A memory provider, of one of two kinds told apart by what `read` returns:
 *
 * - a recall provider (Mem0, a vector database, the built-in index) returns records: given as
 *   `new Agent({ memoryProvider })`, the agent calls `read` with the current input before the
 *   model call and `write` with each finished turn; a provider that throws or passes its
 *   timeout degrades the turn (`memory:error`);
 * - a conversation memory (the AgentLIB document's contract: `BufferMemory`, a custom
 *   `RedisMemory`) returns messages: given to `agent.memory(provider)`, it is the agent's
 *   history (docs/architecture.md, "The run loop").
 */
export interface MemoryProvider {
  readonly type: string;
  read(options: MemoryReadOptions): Promise<MemoryRecord[] | ModelMessage[]>;
  write(messages: AgentMessage[], options: MemoryWriteOptions): Promise<void>;
  /** Forgets the memories of a scope, or of a session id (all of them without one). */
  clear?(options?: MemoryScope | string): Promise<void>;
  /** Lists the memories of a scope (all of them without one), oldest first: records, or conversations. */
  entries?(options?: MemoryScope | string): Promise<MemoryEntry[]>;
}

/**
 * A stored memory as `entries()` lists it: a conversation (`BufferMemory` and the other
 * conversation memories: `{ id, sessionId, messages, metadata }`) or a recalled memory
 * (`SemanticMemoryProvider`, `VectorMemoryProvider`, `Mem0Provider`: `MemoryRecordEntry`).
 */
export type MemoryEntry = MessageMemoryEntry | MemoryRecordEntry;

// --- The AgentLIB document's conversation memories ---

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
