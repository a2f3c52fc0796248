import { matchesMemoryFilter, type MemoryFilter, type MemoryItemMetadata } from "./memory-metadata";

/** One indexed memory: a message (or part of one) with its scope and metadata. */
export interface SemanticDocument extends MemoryItemMetadata {
  /** Unique id of the memory. */
  id: string;
  content: string;
  /** Id of the stored message it came from. Unique per session: writing it again replaces the memory. */
  messageId?: string;
  /** Embedding of `content`, when the provider has an embedder. */
  vector?: number[];
  /**
   * The times the content mentions, resolved against `createdAt` ("yesterday", "last May", "for
   * three years"; see `temporal-expressions.ts`), as flat `[start, end, …]` pairs in ms since the epoch.
   */
  mentions?: number[];
}

/**
 * Which documents a search or listing may see. Every given field must match. With `after` and/or
 * `before` (ms since the epoch), a document passes when its own time (`createdAt`) is in
 * [`after`, `before`) or a time it mentions (`mentions`) overlaps that window.
 */
export type SemanticFilter = MemoryFilter & { after?: number; before?: number };

export interface ScoredDocument {
  document: SemanticDocument;
  score: number;
}

/**
 * Where `SemanticMemoryProvider` keeps its documents. An index answers lexical queries
 * (`searchText`), vector queries (`searchVector`), or both; documents of one session keep
 * their write order so a hit's neighbouring turns can be read back.
 */
export interface SemanticIndex {
  /** Adds documents in order; a document with the `messageId` of one already in its session replaces it in place. */
  add(documents: SemanticDocument[]): Promise<void>;
  /** Best documents for a text query, best first. */
  searchText?(query: string, filter: SemanticFilter, limit: number): Promise<ScoredDocument[]>;
  /** Nearest documents to a vector (cosine similarity), best first. */
  searchVector?(vector: number[], filter: SemanticFilter, limit: number): Promise<ScoredDocument[]>;
  /** Up to `before` documents written just before `id` in its session and `after` just after, in order. */
  neighbours(
    id: string,
    before: number,
    after: number,
  ): Promise<{ before: SemanticDocument[]; after: SemanticDocument[] }>;
  /** Documents matching the filter, oldest first. */
  list(filter: SemanticFilter): Promise<SemanticDocument[]>;
  /** Deletes the documents matching the filter (all of them with an empty filter). */
  delete(filter: SemanticFilter): Promise<void>;
}

/** Whether a document passes a filter. */
export function matchesFilter(document: SemanticDocument, filter: SemanticFilter): boolean {
  return matchesMemoryFilter(document, filter) && inWindow(document, filter.after, filter.before);
}

/** Whether a document's own time is in [after, before), or a time it mentions overlaps it. */
export function inWindow(
  document: Pick<SemanticDocument, "createdAt" | "mentions">,
  after = -Infinity,
  before = Infinity,
): boolean {
  if (document.createdAt >= after && document.createdAt < before) return true;
  const mentions = document.mentions;
  if (!mentions) return false;
  for (let index = 0; index + 1 < mentions.length; index += 2)
    if (mentions[index]! < before && mentions[index + 1]! > after) return true;
  return false;
}
