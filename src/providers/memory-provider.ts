import type { AgentMessage } from "../messages/agent-message";

/** One memory a provider recalled. */
export interface MemoryRecord {
  id: string;
  content: string;
  /** Relevance, higher is better; scale is the provider's. */
  score?: number;
  /** Id of the stored message this record came from, when it came from one. */
  messageId?: string;
  metadata?: Record<string, unknown>;
}

export interface MemoryReadOptions {
  sessionId?: string;
  userId?: string;
  /** What to look for: the current input. */
  query?: string;
  /** Most records to return. */
  limit?: number;
  tags?: string[];
  abortSignal?: AbortSignal;
}

export interface MemoryWriteOptions {
  sessionId?: string;
  userId?: string;
  tags?: string[];
  agentName?: string;
  abortSignal?: AbortSignal;
}

/** A source of long-term, semantic memory (Mem0, a vector database, the built-in index). */
export interface MemoryProvider {
  readonly type: string;
  read(options: MemoryReadOptions): Promise<MemoryRecord[]>;
  write(messages: AgentMessage[], options: MemoryWriteOptions): Promise<void>;
  clear?(options?: { sessionId?: string; userId?: string }): Promise<void>;
  entries?(options?: { sessionId?: string; userId?: string }): Promise<MemoryRecord[]>;
}
