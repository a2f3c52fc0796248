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
 * Tags of a recalled memory: a list of labels, or key/value tags (AgentLIB's `Record<string, string>`).
 * Providers that keep lists store the key/value tag `{ topic: "billing" }` as `"topic=billing"`.
 */
export type MemoryTags = readonly string[] | Readonly<Record<string, string>>;

/** The scope a read, `clear` or `entries` call applies to. */
export interface MemoryScope {
  sessionId?: string | undefined;
  userId?: string | undefined;
}

/** Options of `read`: the AgentLIB document's `MemoryReadOptions`, plus `userId` and `abortSignal`. */
export interface MemoryReadOptions extends MemoryScope {
  /** Max number of messages (or records) to return. @default the provider's (5 records for the recall providers) */
  limit?: number | undefined;
  /** What to look for: the current input. Without it, recall providers return their most recent memories. */
  query?: string | undefined;
  /** Only memories written with every one of these key/value tags (`{ topic: "billing" }`). */
  tags?: Record<string, string> | undefined;
  abortSignal?: AbortSignal | undefined;
}

/** Options of `write`: the AgentLIB document's `MemoryWriteOptions`, plus `userId` and `abortSignal`. */
export interface MemoryWriteOptions extends MemoryScope {
  /** Key/value tags kept with what is written, such as `{ category: "billing" }`. */
  tags?: Record<string, string> | undefined;
  agentName?: string | undefined;
  abortSignal?: AbortSignal | undefined;
}

/** A recall provider's `read` options: tags also as a list of labels. */
export interface RecallReadOptions extends Omit<MemoryReadOptions, "tags"> {
  /**
   * Only memories written with every one of these tags: a list, or key/value tags
   * (`{ topic: "billing" }` matches memories written with that key and value).
   */
  tags?: MemoryTags | undefined;
  /**
   * Told what the read's own model calls spent (the query's embedding), once per call, with the
   * model that made it: the agent counts it in the session's usage ledger (docs/threads.md).
   */
  onUsage?: ((usage: EmbeddingUsage, model: { provider: string; modelId: string }) => void) | undefined;
}

/** What an embedding call spent, as its model reports it. */
export interface EmbeddingUsage {
  inputTokens: number;
}

/** A recall provider's `write` options: tags also as a list of labels. */
export interface RecallWriteOptions extends Omit<MemoryWriteOptions, "tags"> {
  /** Tags kept with what is written: a list, or key/value tags such as `{ category: "billing" }`. */
  tags?: MemoryTags | undefined;
}

/**
 * A recall provider (Mem0, a vector database, the built-in index): `read` returns records relevant
 * to the query. Given as `new Agent({ memoryProvider })` (the AgentCore document's
 * `memoryProvider: MemoryProvider`), the agent calls `read` with the current input before the
 * model call and `write` with each finished turn; a provider that throws or passes its timeout
 * degrades the turn (`memory:error`). Also spelled `MemoryProvider<MemoryRecord>`.
 */
export interface RecallMemoryProvider {
  readonly type: string;
  read(options: RecallReadOptions): Promise<MemoryRecord[]>;
  write(messages: AgentMessage[], options: RecallWriteOptions): Promise<void>;
  /** Forgets the memories of a scope, or of a session id (all of them without one). */
  clear?(options?: MemoryScope | string): Promise<void>;
  /** Lists the memories of a scope (all of them without one), oldest first. */
  entries?(options?: MemoryScope | string): Promise<MemoryRecordEntry[]>;
}

/**
 * A memory provider. One name, two contracts (docs/providers.md, "MemoryProvider: two contracts"),
 * told apart by what `read` returns:
 *
 * - `MemoryProvider` (= `MemoryProvider<ModelMessage>`, {@link MessageMemoryProvider}) is the
 *   AgentLIB document's, as written: `read` returns the conversation (messages), and the provider
 *   given to `agent.memory(provider)` is the agent's history (`BufferMemory`, a custom `RedisMemory`);
 * - `MemoryProvider<MemoryRecord>` ({@link RecallMemoryProvider}) is the AgentCore document's
 *   `memoryProvider` option: `read` returns records recalled for the input.
 */
export type MemoryProvider<TItem extends ModelMessage | MemoryRecord = ModelMessage> = [TItem] extends [MemoryRecord]
  ? RecallMemoryProvider
  : MessageMemoryProvider;

/** Either kind of provider: what `CompositeMemory` and `agent.memory()` accept (the latter also a mixed `CompositeMemory`). */
export type AnyMemoryProvider = MessageMemoryProvider | RecallMemoryProvider;

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

/**
 * One stored conversation, as a conversation memory's `entries()` lists it (the AgentLIB document's
 * `MemoryEntry`). A recall provider lists `MemoryRecordEntry` instead.
 */
export interface MemoryEntry {
  id: string;
  sessionId: string;
  messages: ModelMessage[];
  metadata: MemoryMetadata;
}

/** What the built-in conversation memories list: `accessedAt` is always known. */
export interface StoredMemoryEntry extends MemoryEntry {
  metadata: MemoryMetadata & { accessedAt: Date };
}

/**
 * The AgentLIB document's read/write contract, as written: `read` returns the conversation to
 * continue (messages, oldest first), `write` persists the messages of a finished run.
 * `BufferMemory`, `SlidingWindowMemory`, `SummarizingMemory` and `CompositeMemory` implement it.
 */
export interface MessageMemoryProvider {
  readonly type: string;
  read(options: MemoryReadOptions): Promise<ModelMessage[]>;
  write(messages: ModelMessage[], options: MemoryWriteOptions): Promise<void>;
  clear?(sessionId?: string): Promise<void>;
  entries?(sessionId?: string): Promise<MemoryEntry[]>;
}
