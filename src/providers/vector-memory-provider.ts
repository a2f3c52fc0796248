import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import type { AgentMessage } from "../messages/agent-message";
import type { EmbeddingModel } from "../models/embedding-model";
import { validateSessionId } from "../messages/session-id";
import { embedAll } from "./embed-all";
import type { MemoryEntry, MemoryProvider, MemoryReadOptions, MemoryRecord, MemoryScope, MemoryWriteOptions } from "./memory-provider";
import { listScope, readScope } from "./scope-filter";
import { memoryMetadata, rememberable } from "./memory-metadata";

/** Scope and metadata stored with each item; `search` filters on it. */
export interface VectorMemoryMetadata {
  sessionId?: string;
  userId?: string;
  agentName?: string;
  tags: string[];
  role?: AgentMessage["role"];
  createdAt: number;
}

/** One memory handed to `insert`. */
export interface VectorMemoryItem {
  id: string;
  content: string;
  /** The content's embedding, when the provider has an embedder. */
  vector?: number[];
  messageId?: string;
  metadata: VectorMemoryMetadata;
}

/** What `search` is asked for. Every field of `filter` must match the item's metadata; `tags`: every one of them. */
export interface VectorMemoryQuery {
  text: string;
  /** The query's embedding, when the provider has an embedder. */
  vector?: number[];
  filter: { sessionId?: string; userId?: string; tags?: string[] };
  limit: number;
  abortSignal?: AbortSignal;
}

/** One hit `search` returns: the item's id and content, its score, and (ideally) its metadata. */
export interface VectorMemoryHit {
  id: string;
  content: string;
  score?: number;
  messageId?: string;
  metadata?: Partial<VectorMemoryMetadata> & Record<string, unknown>;
}

export interface VectorMemoryProviderOptions {
  /** Finds the memories nearest to a query in your vector database, honouring `filter`. */
  search: (query: VectorMemoryQuery) => Promise<VectorMemoryHit[]>;
  /** Stores memories in your vector database (upsert by `id`). */
  insert: (items: VectorMemoryItem[]) => Promise<void>;
  /** Embeds contents and queries; without it, `search` gets only the text (databases that embed themselves). */
  embedder?: EmbeddingModel;
  /** Deletes the memories matching a filter (an empty filter: all). Enables `clear`. */
  delete?: (filter: { sessionId?: string; userId?: string }) => Promise<void>;
  /** Lists the memories matching a filter. Enables `entries`. */
  list?: (filter: { sessionId?: string; userId?: string }) => Promise<VectorMemoryItem[]>;
  /** `"session"` or `"user"`, as for `SemanticMemoryProvider`. @default "session" */
  scope?: "session" | "user";
  /** Records a read returns when it gives no `limit`. @default 5 */
  limit?: number;
  /** Roles of the messages that are remembered. @default ["user", "assistant"] */
  roles?: AgentMessage["role"][];
  /** Item ids for new memories. @default a random UUID per memory */
  generateId?: (message: AgentMessage, options: MemoryWriteOptions) => string;
}

const hitSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  content: z.string(),
  score: z.number().optional(),
  messageId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Semantic memory on your own vector database: you bring `search` and `insert` (and optionally
 * `delete`, `list`, an `embedder`); the provider turns finished turns into items, scopes every
 * query, and checks what comes back — a hit whose metadata names another user or session is
 * dropped even if your `search` let it through.
 */
export class VectorMemoryProvider implements MemoryProvider {
  readonly type = "vector";
  private readonly options: VectorMemoryProviderOptions;
  private readonly scope: "session" | "user";
  private readonly limit: number;
  private readonly roles: ReadonlySet<AgentMessage["role"]>;

  constructor(options: VectorMemoryProviderOptions) {
    if (!options || typeof options.search !== "function" || typeof options.insert !== "function") {
      throw new InvalidArgumentError({
        argument: "search",
        message: "VectorMemoryProvider needs `search(query)` and `insert(items)` functions that talk to your vector database.",
      });
    }
    this.options = options;
    this.scope = options.scope ?? "session";
    if (this.scope !== "session" && this.scope !== "user") {
      throw new InvalidArgumentError({ argument: "scope", value: options.scope, message: 'scope must be "session" or "user".' });
    }
    this.limit = options.limit ?? 5;
    this.roles = new Set(options.roles ?? ["user", "assistant"]);
  }

  async write(messages: AgentMessage[], options: MemoryWriteOptions = {}): Promise<void> {
    const sessionId = options.sessionId === undefined ? undefined : validateSessionId(options.sessionId);
    const userId = options.userId === undefined ? undefined : validateSessionId(options.userId, "userId");
    if (sessionId === undefined && userId === undefined) {
      throw new InvalidArgumentError({ argument: "sessionId", message: "VectorMemoryProvider needs a sessionId or userId to write." });
    }
    const now = Date.now();
    const items: VectorMemoryItem[] = rememberable(messages, this.roles).map((message) => ({
      id: this.options.generateId?.(message, options) ?? globalThis.crypto.randomUUID(),
      content: message.content,
      ...(message.id ? { messageId: message.id } : {}),
      metadata: memoryMetadata(message, { sessionId, userId }, options, now),
    }));
    if (items.length === 0) return;
    if (this.options.embedder) {
      const vectors = await embedAll(this.options.embedder, items.map((item) => item.content), options.abortSignal);
      items.forEach((item, index) => (item.vector = vectors[index]));
    }
    await this.options.insert(items);
  }

  async read(options: MemoryReadOptions = {}): Promise<MemoryRecord[]> {
    const scope = readScope(this.scope, options);
    const limit = options.limit ?? this.limit;
    const text = options.query?.trim() ?? "";
    if (!scope || limit <= 0 || text === "") return [];
    const filter = { ...scope, ...(options.tags?.length ? { tags: options.tags } : {}) };
    const vector = this.options.embedder ? (await embedAll(this.options.embedder, [text], options.abortSignal))[0] : undefined;
    const raw = await this.options.search({
      text,
      ...(vector ? { vector } : {}),
      filter,
      limit,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    if (!Array.isArray(raw)) {
      throw new MemoryProviderError({ provider: this.type, operation: "read", message: "search() must return an array of { id, content, score?, metadata? }." });
    }
    const records: MemoryRecord[] = [];
    for (const [index, item] of raw.entries()) {
      const parsed = hitSchema.safeParse(item);
      if (!parsed.success) {
        throw new MemoryProviderError({
          provider: this.type,
          operation: "read",
          message: `search() returned a bad hit at index ${index}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(hit)"}: ${issue.message}`).join("; ")}`,
          cause: parsed.error,
        });
      }
      const hit = parsed.data;
      const metadata = hit.metadata ?? {};
      // Defence in depth: never pass on another scope's memory, whatever search() did.
      if (filter.userId !== undefined && metadata.userId !== undefined && metadata.userId !== filter.userId) continue;
      if (filter.sessionId !== undefined && metadata.sessionId !== undefined && metadata.sessionId !== filter.sessionId) continue;
      if (filter.tags && Array.isArray(metadata.tags) && !filter.tags.every((tag) => (metadata.tags as unknown[]).includes(tag))) continue;
      const messageId = hit.messageId ?? (typeof metadata.messageId === "string" ? metadata.messageId : undefined);
      records.push({
        id: hit.id,
        content: hit.content,
        ...(hit.score !== undefined ? { score: hit.score } : {}),
        ...(messageId ? { messageId } : {}),
        metadata,
      });
      if (records.length >= limit) break;
    }
    return records;
  }

  async clear(options?: MemoryScope): Promise<void> {
    if (!this.options.delete) {
      throw new InvalidArgumentError({ argument: "delete", message: "clear() needs the `delete(filter)` option of VectorMemoryProvider." });
    }
    await this.options.delete(listScope(this.scope, options));
  }

  async entries(options?: MemoryScope): Promise<MemoryEntry[]> {
    if (!this.options.list) {
      throw new InvalidArgumentError({ argument: "list", message: "entries() needs the `list(filter)` option of VectorMemoryProvider." });
    }
    const items = await this.options.list(listScope(this.scope, options));
    return items.map((item) => ({
      id: item.id,
      content: item.content,
      ...(item.messageId ? { messageId: item.messageId } : {}),
      createdAt: item.metadata.createdAt,
      ...(item.metadata.sessionId !== undefined ? { sessionId: item.metadata.sessionId } : {}),
      ...(item.metadata.userId !== undefined ? { userId: item.metadata.userId } : {}),
      ...(item.metadata.agentName ? { agentName: item.metadata.agentName } : {}),
      tags: [...(item.metadata.tags ?? [])],
      ...(item.metadata.role ? { role: item.metadata.role } : {}),
    }));
  }
}
