import { integerOption } from "../errors/check-option";
import { contentText } from "../messages/content-text";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import type { AISDKEmbeddingModel } from "../models/ai-sdk/ai-sdk-types";
import { resolveEmbeddingModel } from "../models/ai-sdk/resolve-embedding-model";
import type { EmbeddingModel } from "../models/embedding-model";
import type { EmbedFunction } from "../models/function-embedding-model";
import { validateSessionId } from "../messages/session-id";
import { listScope, readScope } from "./scope-filter";
import { embedAll } from "./embed-all";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";
import type {
  MemoryRecordEntry,
  RecallMemoryProvider,
  RecallReadOptions,
  MemoryRecord,
  MemoryScope,
  RecallWriteOptions,
} from "./memory-provider";
import {
  matchesFilter,
  type ScoredDocument,
  type SemanticDocument,
  type SemanticFilter,
  type SemanticIndex,
} from "./semantic-index";
import { memoryMetadata, rememberable, tagList } from "./memory-metadata";
import { mentionedTimes, queryPeriod } from "./temporal-expressions";
import { rankByPeriod } from "./rank-by-period";
import { fuseByRank } from "./fuse-by-rank";
import { nonNegativeOption } from "../errors/check-option";

/** `read` options of `SemanticMemoryProvider`: the common ones plus a time window. */
export interface SemanticReadOptions extends RecallReadOptions {
  /**
   * Only memories of this time or later: written then, or mentioning a time that reaches it
   * ("yesterday" in a message of 17 March is 16 March). A `Date` or ms since the epoch.
   */
  after?: Date | number | undefined;
  /** Only memories of before this time (written, or mentioning a time that starts, before it). */
  before?: Date | number | undefined;
}

export interface SemanticMemoryProviderOptions {
  /**
   * Embeds memories and queries: an agentcore `EmbeddingModel` (`createOpenAI().embedding()`), an
   * AI SDK one (`openai.embedding("text-embedding-3-small")`, spec v2 to v4), or a plain
   * `(texts) => Promise<number[][]>` (see `fromEmbedFunction`). Without it, retrieval is lexical
   * (BM25 over stemmed terms).
   */
  embedder?: EmbeddingModel | AISDKEmbeddingModel | EmbedFunction;
  /** Where memories live. @default new InMemorySemanticIndex() */
  index?: SemanticIndex;
  /**
   * `"session"`: a read sees the memories of its session (and, given a userId, only that user's).
   * `"user"`: a read sees the memories of its userId across all their sessions; without a userId
   * it falls back to its session. @default "session"
   */
  scope?: "session" | "user";
  /**
   * Turns written just before and after each hit, joined into its content (in order), so a recalled
   * answer comes with the question it answered. A number means that many on each side. @default 0
   */
  neighbours?: number | { before?: number; after?: number };
  /**
   * How reads rank, given an embedder: by vectors only, lexically only, or both fused by
   * reciprocal rank. Without an embedder, always lexical. @default "hybrid"
   */
  ranking?: "lexical" | "vector" | "hybrid";
  /**
   * Weight of the vector list in `ranking: "hybrid"`: a memory scores `1 / (60 + its lexical rank)`
   * plus this weight × `1 / (60 + its vector rank)` (weighted reciprocal-rank fusion, k = 60).
   * The default, chosen leave-one-conversation-out on the LoCoMo dev slice (BENCHMARKS.md), lets
   * a good embedder lift recall while a useless one cannot pull it more than a point below the
   * lexical ranking. 0 ranks reads lexically (writes still store vectors); 1 is plain RRF.
   * @default 0.02
   */
  vectorWeight?: number;
  /** Records a read returns when it gives no `limit`. @default 5 */
  limit?: number;
  /** Roles of the messages that are remembered. @default ["user", "assistant"] */
  roles?: AgentMessage["role"][];
  /**
   * Weight of time in ranking. When a query names a date or a period ("on March 16, 2022", "in
   * January 2022", "last year"), memories written in it, or mentioning a time in it ("yesterday",
   * "last Friday", resolved against their own timestamp), join the hits and rank higher: each
   * gets this weight × how well its time matches, on a scale where the best hit scores 1.
   * 0 turns it off. @default 1
   */
  periodWeight?: number;
  /** The time a query's relative dates ("last year", "last Friday") are resolved against. @default Date.now */
  now?: () => number;
}

/** Rank constant of reciprocal-rank fusion (Cormack et al., 2009). */
const RRF_K = 60;
/** Default weight of the vector list in hybrid ranking (see `vectorWeight`). */
const VECTOR_WEIGHT = 0.02;
/** Share of `periodWeight` a memory written in the period gets (one mentioning a time in it gets all). */
const OWN_TIME_SHARE = 0.5;
/**
 * Longest period whose memories all join the hits (a season), found by the index's time lookup.
 * In a longer one ("in 2022") only its best memories by text do, so a read never lists most of a
 * long history.
 */
const LISTED_PERIOD = 92 * 86_400_000;

/**
 * Built-in semantic memory that needs no external service. Every message of a finished turn
 * becomes one memory (carrying `messageId`); a read ranks the memories of its scope against the
 * query — lexically by default, by embeddings or both when an `embedder` is given.
 *
 * ```ts
 * const agent = new Agent({ model, memoryProvider: new SemanticMemoryProvider({ scope: "user", neighbours: 1 }) });
 * ```
 */
export class SemanticMemoryProvider implements RecallMemoryProvider {
  readonly type = "semantic";
  private readonly index: SemanticIndex;
  private readonly embedder: EmbeddingModel | undefined;
  private readonly scope: "session" | "user";
  private readonly before: number;
  private readonly after: number;
  private readonly ranking: "lexical" | "vector" | "hybrid";
  private readonly vectorWeight: number;
  private readonly limit: number;
  private readonly roles: ReadonlySet<AgentMessage["role"]>;
  private readonly periodWeight: number;
  private readonly now: () => number;

  constructor(options: SemanticMemoryProviderOptions = {}) {
    this.index = options.index ?? new InMemorySemanticIndex();
    this.embedder = resolveEmbeddingModel(options.embedder);
    this.scope = options.scope ?? "session";
    if (this.scope !== "session" && this.scope !== "user") {
      throw new InvalidArgumentError({
        argument: "scope",
        value: options.scope,
        message: 'scope must be "session" or "user".',
      });
    }
    const neighbours =
      typeof options.neighbours === "number"
        ? { before: options.neighbours, after: options.neighbours }
        : (options.neighbours ?? {});
    this.before = integerOption(neighbours.before, "neighbours.before", 0, 0);
    this.after = integerOption(neighbours.after, "neighbours.after", 0, 0);
    this.ranking = this.embedder ? (options.ranking ?? "hybrid") : "lexical";
    this.vectorWeight = nonNegativeOption(options.vectorWeight, "vectorWeight", VECTOR_WEIGHT);
    this.limit = integerOption(options.limit, "limit", 5, 0);
    this.roles = new Set(options.roles ?? ["user", "assistant"]);
    this.periodWeight = nonNegativeOption(options.periodWeight, "periodWeight", 1);
    this.now = options.now ?? Date.now;
    const needsText = this.ranking !== "vector";
    const needsVector = this.ranking !== "lexical";
    if ((needsText && !this.index.searchText) || (needsVector && !this.index.searchVector)) {
      throw new InvalidArgumentError({
        argument: "index",
        message: `This index cannot rank ${needsText && !this.index.searchText ? "lexically" : "by vectors"}: ${
          this.embedder ? 'pass ranking: "vector" (or "lexical") to match it' : "pass an embedder"
        }, or use an index that can.`,
      });
    }
  }

  async write(messages: AgentMessage[], options: RecallWriteOptions = {}): Promise<void> {
    const sessionId = options.sessionId === undefined ? undefined : validateSessionId(options.sessionId);
    const userId = options.userId === undefined ? undefined : validateSessionId(options.userId, "userId");
    if (this.scope === "session" && sessionId === undefined) {
      throw new InvalidArgumentError({
        argument: "sessionId",
        message: "A session-scoped SemanticMemoryProvider needs a sessionId to write.",
      });
    }
    if (this.scope === "user" && sessionId === undefined && userId === undefined) {
      throw new InvalidArgumentError({
        argument: "userId",
        message: "A user-scoped SemanticMemoryProvider needs a userId (or a sessionId) to write.",
      });
    }
    options.abortSignal?.throwIfAborted();
    const now = Date.now();
    const documents: SemanticDocument[] = rememberable(messages, this.roles).map((message) => {
      const metadata = memoryMetadata(message, { sessionId, userId }, options, now);
      const text = contentText(message.content);
      const mentions = mentionedTimes(text, metadata.createdAt);
      return {
        id: globalThis.crypto.randomUUID(),
        content: text,
        ...(message.id ? { messageId: message.id } : {}),
        ...metadata,
        ...(mentions.length ? { mentions } : {}),
      };
    });
    if (documents.length === 0) return;
    if (this.embedder && this.ranking !== "lexical") {
      const vectors = await embedAll(
        this.embedder,
        documents.map((document) => document.content),
        options.abortSignal,
      );
      documents.forEach((document, position) => (document.vector = vectors[position]));
    }
    await this.index.add(documents);
  }

  async read(options: SemanticReadOptions = {}): Promise<MemoryRecord[]> {
    const scope = readScope(this.scope, options);
    const limit = options.limit === undefined ? this.limit : integerOption(options.limit, "limit", this.limit, 0);
    const after = timeOption(options.after, "after");
    const before = timeOption(options.before, "before");
    if (!scope || limit === 0) return [];
    const tags = tagList(options.tags);
    const filter: SemanticFilter = {
      ...scope,
      ...(tags.length ? { tags } : {}),
      ...(after !== undefined ? { after } : {}),
      ...(before !== undefined ? { before } : {}),
    };
    options.abortSignal?.throwIfAborted();
    const query = options.query?.trim() ?? "";
    let hits: ScoredDocument[];
    if (query === "") {
      const recent = (await this.index.list(filter)).slice(-limit).reverse();
      hits = recent.map((document) => ({ document, score: 0 }));
    } else {
      hits = await this.rank(query, filter, limit, options.abortSignal, options.onUsage);
    }
    return this.withNeighbours(hits, filter);
  }

  async clear(options?: MemoryScope | string): Promise<void> {
    await this.index.delete(listScope(this.scope, options));
  }

  async entries(options?: MemoryScope | string): Promise<MemoryRecordEntry[]> {
    const documents = await this.index.list(listScope(this.scope, options));
    return documents.map((document) => ({
      id: document.id,
      content: document.content,
      ...(document.messageId ? { messageId: document.messageId } : {}),
      createdAt: document.createdAt,
      ...(document.sessionId !== undefined ? { sessionId: document.sessionId } : {}),
      ...(document.userId !== undefined ? { userId: document.userId } : {}),
      ...(document.agentName ? { agentName: document.agentName } : {}),
      tags: [...document.tags],
      ...(document.role ? { role: document.role } : {}),
    }));
  }

  private async rank(
    query: string,
    filter: SemanticFilter,
    limit: number,
    abortSignal?: AbortSignal,
    onUsage?: RecallReadOptions["onUsage"],
  ): Promise<ScoredDocument[]> {
    const period = this.periodWeight > 0 ? queryPeriod(query, this.now()) : undefined;
    if (!period) return this.rankByText(query, filter, limit, this.embed(query, abortSignal, onUsage));
    // The date's words match by time, not by text ("three days ago" is no reason to rank "three years" first).
    const text = /\p{L}/u.test(period.rest) ? period.rest : query;
    const embedding = this.embed(text, abortSignal, onUsage);
    embedding?.catch(() => undefined); // awaited below; unobserved only if a search fails first
    const window = {
      ...filter,
      after: Math.max(period.start, filter.after ?? -Infinity),
      before: Math.min(period.end, filter.before ?? Infinity),
    };
    const open = window.after < window.before;
    // The period's best hits and, when it is short, its memories that share no word with the query,
    // both found by the index through its time lookup (not a scan).
    const [inPeriod, timed] = await Promise.all([
      open ? this.rankByText(text, window, Math.max(limit * 4, 50), embedding) : [],
      open && period.end - period.start <= LISTED_PERIOD ? this.index.list(window) : [],
    ]);
    // When they cannot fill the read, the best hits of the whole scope join them.
    const found = new Set([...inPeriod.map((hit) => hit.document.id), ...timed.map((document) => document.id)]);
    const hits = found.size < limit ? await this.rankByText(text, filter, limit, embedding) : [];
    const merged = new Map<string, ScoredDocument>();
    for (const hit of [...inPeriod, ...hits]) {
      const known = merged.get(hit.document.id);
      if (!known || known.score < hit.score) merged.set(hit.document.id, hit);
    }
    return rankByPeriod(
      [...merged.values()].sort((left, right) => right.score - left.score),
      timed,
      { start: period.start, end: period.end },
      this.periodWeight,
      OWN_TIME_SHARE,
      limit,
    );
  }

  /** Whether reads rank by text only: the lexical ranking, or a hybrid whose vector list weighs nothing. */
  private get readsLexically(): boolean {
    return this.ranking === "lexical" || (this.ranking === "hybrid" && this.vectorWeight === 0);
  }

  /** The query's embedding, when reads rank by vectors. */
  private embed(
    query: string,
    abortSignal?: AbortSignal,
    onUsage?: RecallReadOptions["onUsage"],
  ): Promise<number[]> | undefined {
    if (this.readsLexically) return undefined;
    return embedAll(this.embedder!, [query], abortSignal, onUsage).then(([embedding]) => embedding!);
  }

  private async rankByText(
    query: string,
    filter: SemanticFilter,
    limit: number,
    embedding: Promise<number[]> | undefined,
  ): Promise<ScoredDocument[]> {
    if (this.readsLexically) return this.index.searchText!(query, filter, limit);
    const fused = this.ranking === "hybrid";
    const depth = fused ? Math.max(limit * 4, 50) : limit;
    const lexical = fused ? this.index.searchText!(query, filter, depth) : Promise.resolve([]);
    const vector = embedding
      ? embedding.then((vector) => this.index.searchVector!(vector, filter, depth))
      : Promise.resolve([]);
    const [lexicalHits, vectorHits] = await Promise.all([lexical, vector]);
    if (!fused) return vectorHits;
    return fuseByRank(
      [
        { hits: lexicalHits, weight: 1 },
        { hits: vectorHits, weight: this.vectorWeight },
      ],
      RRF_K,
    ).slice(0, limit);
  }

  private async withNeighbours(hits: ScoredDocument[], filter: SemanticFilter): Promise<MemoryRecord[]> {
    const records: MemoryRecord[] = [];
    const shown = new Set<string>();
    for (const { document, score } of hits) {
      if (shown.has(document.id)) continue;
      let parts = [document];
      if (this.before > 0 || this.after > 0) {
        const around = await this.index.neighbours(document.id, this.before, this.after);
        const visible = (neighbour: SemanticDocument) => matchesFilter(neighbour, { ...filter, tags: [] });
        const fresh = (neighbour: SemanticDocument) => visible(neighbour) && !shown.has(neighbour.id);
        parts = [...around.before.filter(fresh), document, ...around.after.filter(fresh)];
      }
      for (const part of parts) shown.add(part.id);
      records.push({
        id: document.id,
        content: parts.map((part) => part.content).join("\n"),
        score,
        ...(document.messageId ? { messageId: document.messageId } : {}),
        metadata: {
          createdAt: document.createdAt,
          ...(document.role ? { role: document.role } : {}),
          ...(document.sessionId !== undefined ? { sessionId: document.sessionId } : {}),
          ...(document.userId !== undefined ? { userId: document.userId } : {}),
          ...(document.agentName ? { agentName: document.agentName } : {}),
          tags: [...document.tags],
          ...(parts.length > 1
            ? {
                neighbourMessageIds: parts.filter((part) => part !== document).map((part) => part.messageId ?? part.id),
              }
            : {}),
        },
      });
    }
    return records;
  }
}

/** A `Date` or ms since the epoch as ms, or an `InvalidArgumentError` naming the option. */
function timeOption(value: Date | number | undefined, argument: string): number | undefined {
  if (value === undefined) return undefined;
  const time = value instanceof Date ? value.getTime() : value;
  if (typeof time !== "number" || !Number.isFinite(time)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: `${argument} must be a Date or a number of ms since the epoch, got ${String(value)}.`,
    });
  }
  return time;
}
