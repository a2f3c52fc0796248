import { z } from "zod";
import { contentText } from "../messages/content-text";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import type { AgentMessage } from "../messages/agent-message";
import type { AISDKEmbeddingModel } from "../models/ai-sdk/ai-sdk-types";
import { resolveEmbeddingModel } from "../models/ai-sdk/resolve-embedding-model";
import type { EmbeddingModel } from "../models/embedding-model";
import { validateSessionId } from "../messages/session-id";
import { embedAll } from "./embed-all";
import type {
  MemoryRecordEntry,
  RecallMemoryProvider,
  RecallReadOptions,
  MemoryRecord,
  MemoryScope,
  RecallWriteOptions,
} from "./memory-provider";
import {
  matchesMemoryFilter,
  memoryMetadata,
  rememberable,
  tagList,
  type MemoryFilter,
  type MemoryItemMetadata,
} from "./memory-metadata";
import { listScope, readScope } from "./scope-filter";

/** Scope and metadata stored with each item (the same shape as `SemanticMemoryProvider`'s documents). */
export type VectorMemoryMetadata = MemoryItemMetadata;

/** One memory as `list` returns it. */
export interface VectorMemoryItem {
  id: string;
  content: string;
  /** The content's embedding, when the provider has an embedder. */
  vector?: number[];
  messageId?: string;
  metadata: VectorMemoryMetadata;
}

/** The third argument of `insert`: the memory's id (upsert by it), embedding and source message. */
export interface VectorInsertOptions {
  id: string;
  /** The text's embedding, when the provider has an embedder. */
  vector?: number[];
  messageId?: string;
  abortSignal?: AbortSignal;
}

/** The third argument of `search`: the scope to honour, the query's embedding, the abort signal. */
export interface VectorSearchOptions {
  /** Every given field must match the item's metadata; `tags`: every one of them. */
  filter: MemoryFilter;
  /** The query's embedding, when the provider has an embedder. */
  vector?: number[];
  abortSignal?: AbortSignal;
}

/** @deprecated The query and the third argument of `search`, as one object. */
export type VectorMemoryQuery = VectorSearchOptions & { text: string; limit: number };

/** One hit `search` returns: the item's id and content, its score, and (ideally) its metadata. A plain string is a hit too. */
export interface VectorMemoryHit {
  id: string;
  content: string;
  score?: number;
  messageId?: string;
  metadata?: Partial<VectorMemoryMetadata> & Record<string, unknown>;
}

export interface VectorMemoryProviderOptions {
  /**
   * Finds the memories nearest to `query` in your vector database: up to `limit` hits, best first,
   * each a string or a `{ id, content, score?, metadata? }`. `options.filter` is the scope to honour.
   */
  search: (
    query: string,
    limit: number,
    options: VectorSearchOptions,
  ) => Promise<readonly (string | VectorMemoryHit)[]>;
  /** Stores one memory in your vector database (upsert by `options.id`); called once per remembered message. */
  insert: (text: string, metadata: VectorMemoryMetadata, options: VectorInsertOptions) => Promise<unknown>;
  /**
   * Embeds contents and queries (an agentcore `EmbeddingModel`, or an AI SDK one such as
   * `openai.embedding("text-embedding-3-small")`); without it, `search` gets only the text
   * (databases that embed themselves).
   */
  embedder?: EmbeddingModel | AISDKEmbeddingModel;
  /** Deletes the memories matching a filter (an empty filter: all). Enables `clear`. */
  delete?: (filter: MemoryScope) => Promise<void>;
  /** Lists the memories matching a filter. Enables `entries`. */
  list?: (filter: MemoryScope) => Promise<VectorMemoryItem[]>;
  /** `"session"` or `"user"`, as for `SemanticMemoryProvider`. @default "session" */
  scope?: "session" | "user";
  /** Records a read returns when it gives no `limit`. @default 5 */
  limit?: number;
  /** Roles of the messages that are remembered. @default ["user", "assistant"] */
  roles?: AgentMessage["role"][];
  /** Item ids for new memories. @default a random UUID per memory */
  generateId?: (message: AgentMessage, options: RecallWriteOptions) => string;
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
export class VectorMemoryProvider implements RecallMemoryProvider {
  readonly type = "vector";
  private readonly options: VectorMemoryProviderOptions;
  private readonly embedder: EmbeddingModel | undefined;
  private readonly scope: "session" | "user";
  private readonly limit: number;
  private readonly roles: ReadonlySet<AgentMessage["role"]>;

  constructor(options: VectorMemoryProviderOptions) {
    if (!options || typeof options.search !== "function" || typeof options.insert !== "function") {
      throw new InvalidArgumentError({
        argument: "search",
        message:
          "VectorMemoryProvider needs `search(query, limit)` and `insert(text, metadata)` functions that talk to your vector database.",
      });
    }
    this.options = options;
    this.embedder = resolveEmbeddingModel(options.embedder);
    this.scope = options.scope ?? "session";
    if (this.scope !== "session" && this.scope !== "user") {
      throw new InvalidArgumentError({
        argument: "scope",
        value: options.scope,
        message: 'scope must be "session" or "user".',
      });
    }
    this.limit = options.limit ?? 5;
    this.roles = new Set(options.roles ?? ["user", "assistant"]);
  }

  async write(messages: AgentMessage[], options: RecallWriteOptions = {}): Promise<void> {
    const sessionId = options.sessionId === undefined ? undefined : validateSessionId(options.sessionId);
    const userId = options.userId === undefined ? undefined : validateSessionId(options.userId, "userId");
    if (sessionId === undefined && userId === undefined) {
      throw new InvalidArgumentError({
        argument: "sessionId",
        message: "VectorMemoryProvider needs a sessionId or userId to write.",
      });
    }
    const now = Date.now();
    const items: VectorMemoryItem[] = rememberable(messages, this.roles).map((message) => ({
      id: this.options.generateId?.(message, options) ?? globalThis.crypto.randomUUID(),
      content: contentText(message.content),
      ...(message.id ? { messageId: message.id } : {}),
      metadata: memoryMetadata(message, { sessionId, userId }, options, now),
    }));
    if (items.length === 0) return;
    if (this.embedder) {
      const vectors = await embedAll(
        this.embedder,
        items.map((item) => item.content),
        options.abortSignal,
      );
      items.forEach((item, index) => (item.vector = vectors[index]));
    }
    // One call per memory, in order: the shape of the AgentCore document's `insert(text, metadata)`.
    for (const item of items) {
      options.abortSignal?.throwIfAborted();
      await this.options.insert(item.content, item.metadata, {
        id: item.id,
        ...(item.vector ? { vector: item.vector } : {}),
        ...(item.messageId ? { messageId: item.messageId } : {}),
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
    }
  }

  async read(options: RecallReadOptions = {}): Promise<MemoryRecord[]> {
    const scope = readScope(this.scope, options);
    const limit = options.limit ?? this.limit;
    const text = options.query?.trim() ?? "";
    if (!scope || limit <= 0 || text === "") return [];
    const tags = tagList(options.tags);
    const filter: MemoryFilter = { ...scope, ...(tags.length ? { tags } : {}) };
    const vector = this.embedder
      ? (await embedAll(this.embedder, [text], options.abortSignal, options.onUsage))[0]
      : undefined;
    const raw = await this.options.search(text, limit, {
      filter,
      ...(vector ? { vector } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    if (!Array.isArray(raw)) {
      throw new MemoryProviderError({
        provider: this.type,
        operation: "read",
        message: "search() must return an array of strings or { id, content, score?, metadata? }.",
      });
    }
    const records: MemoryRecord[] = [];
    for (const [index, item] of raw.entries()) {
      const hit = parseHit(item, index, this.type);
      const metadata = hit.metadata ?? {};
      if (!inScope(metadata, filter)) continue;
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

  async clear(options?: MemoryScope | string): Promise<void> {
    if (!this.options.delete) {
      throw new InvalidArgumentError({
        argument: "delete",
        message: "clear() needs the `delete(filter)` option of VectorMemoryProvider.",
      });
    }
    await this.options.delete(listScope(this.scope, options));
  }

  async entries(options?: MemoryScope | string): Promise<MemoryRecordEntry[]> {
    if (!this.options.list) {
      throw new InvalidArgumentError({
        argument: "list",
        message: "entries() needs the `list(filter)` option of VectorMemoryProvider.",
      });
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

/** A hit as a record: a string is its own content (its id derived from it), an object is checked. */
function parseHit(item: unknown, index: number, provider: string): z.infer<typeof hitSchema> {
  if (typeof item === "string") return { id: `text:${contentKey(item)}`, content: item };
  const parsed = hitSchema.safeParse(item);
  if (parsed.success) return parsed.data;
  throw new MemoryProviderError({
    provider,
    operation: "read",
    message: `search() returned a bad hit at index ${index}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(hit)"}: ${issue.message}`).join("; ")}`,
    cause: parsed.error,
  });
}

/**
 * Defence in depth: whatever `search` did, a hit passes only if it is in the read's scope.
 * A hit whose metadata names a session or user (as every item this provider inserted does) must
 * match the whole scope: the read's session and user and every tag. A hit that names neither
 * (a plain string, or a record without scope metadata, as a `search` written like the AgentCore
 * document returns) carries nothing to check against: it is `search`'s own answer to the filter
 * it was given, kept as it is (its tags, if it has any, must still match).
 */
function inScope(metadata: Record<string, unknown>, filter: MemoryFilter): boolean {
  const scoped = metadata.sessionId !== undefined || metadata.userId !== undefined;
  if (scoped) return matchesMemoryFilter(metadata as Partial<VectorMemoryMetadata>, filter);
  if (!Array.isArray(metadata.tags)) return true;
  return matchesMemoryFilter(metadata as Partial<VectorMemoryMetadata>, {
    ...(filter.tags ? { tags: filter.tags } : {}),
  });
}

/** A short stable key for a text (FNV-1a, 32 bits, hex) and its length. */
function contentKey(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16)}-${text.length}`;
}
