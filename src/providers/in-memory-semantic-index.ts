import { analyzeQuery, analyzeText, asksWhen, mentionsTime } from "./text-analysis";
import { followTerms, mergeFollowed } from "./follow-first-hits";
import { pickEvictions } from "./pick-evictions";
import { boostOf, NO_NEIGHBOUR as NONE, speakerTerm } from "./lexical-scoring";
import {
  everyScored,
  scoreEach,
  searchExhaustive,
  searchPruned,
  type LexicalCorpus,
  type QueryTerm,
} from "./lexical-search";
import { norm, topK } from "./top-k";
import { DocumentColumns } from "./document-columns";
import { PostingLists, type PostingList } from "./posting-lists";
import { SearchScratch } from "./search-scratch";
import { SessionChains } from "./session-chains";
import { TimeIndex } from "./time-index";
import {
  resolveOptions,
  type InMemorySemanticIndexOptions,
  type ResolvedOptions,
} from "./in-memory-semantic-index-options";
import {
  matchesFilter,
  type ScoredDocument,
  type SemanticDocument,
  type SemanticFilter,
  type SemanticIndex,
} from "./semantic-index";

export type { InMemorySemanticIndexOptions } from "./in-memory-semantic-index-options";

interface Entry {
  document: SemanticDocument;
  /** Posting lists of the distinct terms of the content, for document-frequency bookkeeping on delete. */
  terms: PostingList[];
  length: number;
  chain: string;
  /** Term of the speaker a transcript-style content starts with. */
  speaker: string | undefined;
  /** Tick of the last search that returned it (or of its addition). */
  used: number;
}

/**
 * The default index of `SemanticMemoryProvider`: everything in process memory. Lexical search is
 * BM25 over stemmed terms (see `analyzeText`; a query's terms also leave out the words that frame a
 * question, see `analyzeQuery`) through an inverted index, plus a share of each
 * hit's score lent to its neighbouring turns; vector search is exact cosine similarity.
 */
export class InMemorySemanticIndex implements SemanticIndex {
  private readonly options: ResolvedOptions;
  private entries: (Entry | undefined)[] = [];
  private readonly ordinalById = new Map<string, number>();
  /** term → its postings and their bounds; dead ordinals are skipped. */
  private readonly postings = new PostingLists();
  /** Length, session and user of each ordinal, for the searches. */
  private readonly columns = new DocumentColumns();
  /** Each session's order, linked through `columns`, and its documents by message id. */
  private readonly chains = new SessionChains(this.columns);
  /** Each document's own time and the times it mentions, sorted, for reads with a time window. */
  private readonly times = new TimeIndex();
  /** Speaker term → documents it speaks, so a query knows which of its terms name a speaker. */
  private readonly speakers = new Map<string, number>();
  private liveCount = 0;
  private readonly scratch = new SearchScratch();
  private totalLength = 0;
  private deadPostings = 0;
  private livePostings = 0;
  private tick = 0;
  /** Every ordinal below it is dead: where the search for the oldest live document starts. */
  private oldest = 0;

  constructor(options: InMemorySemanticIndexOptions = {}) {
    this.options = resolveOptions(options);
  }

  /** Live documents. */
  get size(): number {
    return this.liveCount;
  }

  async add(documents: SemanticDocument[]): Promise<void> {
    for (const document of documents) this.addOne(document);
    const { maxDocuments } = this.options;
    if (this.liveCount > maxDocuments) this.evict(this.liveCount - maxDocuments);
  }

  async searchText(query: string, filter: SemanticFilter, limit: number): Promise<ScoredDocument[]> {
    const queryTerms = new Map<string, number>();
    for (const term of analyzeQuery(query)) queryTerms.set(term, (queryTerms.get(term) ?? 0) + 1);
    if (queryTerms.size === 0 || this.liveCount === 0 || limit <= 0) return [];
    const averageLength = this.totalLength / this.liveCount || 1;
    const { k1, b, contextWeight, contextWindow, questionWeight, followWeight } = this.options;
    const lengthNorm = b / averageLength;
    const saturation = (frequency: number, length: number) =>
      (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + lengthNorm * length));
    const idf = (frequency: number) => Math.log(1 + (this.liveCount - frequency + 0.5) / (frequency + 0.5));
    // The scratch arrays (see `SearchScratch`): this method never awaits, so searches cannot interleave.
    const entries = this.entries;
    const scratch = this.scratch;
    // A time window: its documents found through the time index, marked for the filter.
    const windowed =
      filter.after === undefined && filter.before === undefined
        ? undefined
        : this.times.within(filter, entries.length, Infinity)!;
    const passes = scratch.begin(entries, this.columns, filter, windowed?.marks);
    const lending =
      contextWeight > 0 && contextWindow > 0
        ? { weight: contextWeight, window: contextWindow, questionWeight }
        : undefined;
    // A query's terms (posting lists, with their frequency in it), IDF mass and boosts.
    const prepare = (counts: readonly [PostingList | undefined, number][], when: boolean) => {
      const terms: QueryTerm[] = [];
      let mass = 0;
      const named: number[] = [];
      for (const [postings, queryFrequency] of counts) {
        const frequency = postings?.documents;
        if (!postings || !frequency) continue;
        const termIdf = idf(frequency);
        const weight = termIdf * (1 + Math.log(queryFrequency));
        terms.push({
          list: postings.data.subarray(0, postings.used),
          idf: termIdf,
          weight,
          bound: weight * saturation(postings.maxFrequency, postings.minLength),
        });
        mass += termIdf;
      }
      for (const [postings] of counts)
        if (postings && this.speakers.has(postings.term)) named.push(this.columns.codeOf(postings.term));
      const speakerWeight = named.length > 0 ? this.options.speakerWeight : 1;
      const timeWeight = when ? this.options.timeWeight : 1;
      const corpus: LexicalCorpus = {
        lengths: this.columns.lengths,
        columns: this.columns,
        passes,
        saturation,
        coordination: this.options.coordination,
        lending,
        boost: boostOf(this.columns, named, speakerWeight, timeWeight),
        maxBoost: Math.max(1, speakerWeight) * Math.max(1, timeWeight),
        own: scratch.own,
        matched: scratch.matched,
        flags: scratch.flags,
      };
      return { terms, mass, corpus };
    };
    const search = this.options.pruning ? searchPruned : searchExhaustive;
    try {
      const first = prepare(
        [...queryTerms].map(([term, count]) => [this.postings.get(term), count]),
        asksWhen(query),
      );
      if (first.terms.length === 0) return [];
      // A narrow time window: score only the documents in it (the same scores the search gives them).
      const narrow = windowed && windowed.ordinals.length <= Math.max(256, this.liveCount >> 3);
      const inside = narrow ? windowed.ordinals.sort((left, right) => left - right).filter(passes) : [];
      const ranked = narrow
        ? topK(
            new Map(
              scoreEach(first.terms, first.mass, first.corpus, inside, false, true)
                .map((score, index) => [inside[index]!, score] as [number, number])
                .filter(([, score]) => score > 0),
            ),
            limit,
          )
        : search(first.terms, first.mass, first.corpus, limit);
      const hits = ranked.map(([ordinal]) => ordinal);
      const expansion = followWeight > 0 ? followTerms(hits, entries, queryTerms, idf) : [];
      if (expansion.length === 0) return this.results(ranked);
      // Follow the first hits. Every document the follow-up query scores (its terms are rare: a
      // few) joins the query's best, scored by the query too; any other document keeps its score
      // by the query, under the query's best. So the merged ranking is over all documents.
      const second = prepare(
        expansion.map((postings) => [postings, 1]),
        false,
      );
      const followed = everyScored(second.terms, second.corpus);
      const byQuery = new Map(ranked);
      const joining = followed.filter((ordinal) => !byQuery.has(ordinal));
      scoreEach(first.terms, first.mass, first.corpus, joining, true).forEach((score, index) =>
        byQuery.set(joining[index]!, score),
      );
      const byFollowUp = new Map(
        scoreEach(second.terms, second.mass, second.corpus, followed, false).map((score, index) => [
          followed[index]!,
          score,
        ]),
      );
      return this.results(topK(mergeFollowed(byQuery, byFollowUp, followWeight), limit));
    } finally {
      scratch.end();
    }
  }

  /** The documents of ranked ordinals, each marked as just recalled. */
  private results(ranked: [number, number][]): ScoredDocument[] {
    const tick = ++this.tick;
    return ranked.map(([ordinal, score]) => {
      const entry = this.entries[ordinal]!;
      entry.used = tick;
      return { document: entry.document, score };
    });
  }

  async searchVector(vector: number[], filter: SemanticFilter, limit: number): Promise<ScoredDocument[]> {
    const queryNorm = norm(vector);
    if (queryNorm === 0 || limit <= 0) return [];
    const scores = new Map<number, number>();
    this.entries.forEach((entry, ordinal) => {
      const candidate = entry?.document.vector;
      if (!candidate || candidate.length !== vector.length || !matchesFilter(entry.document, filter)) return;
      const candidateNorm = norm(candidate);
      if (candidateNorm === 0) return;
      let dot = 0;
      for (let index = 0; index < vector.length; index++) dot += vector[index]! * candidate[index]!;
      scores.set(ordinal, dot / (queryNorm * candidateNorm));
    });
    return this.results(topK(scores, limit));
  }

  async neighbours(
    id: string,
    before: number,
    after: number,
  ): Promise<{ before: SemanticDocument[]; after: SemanticDocument[] }> {
    const ordinal = this.ordinalById.get(id);
    if (ordinal === undefined) return { before: [], after: [] };
    const earlier: SemanticDocument[] = [];
    const { previous, next } = this.columns;
    for (let cursor = previous[ordinal]!; cursor !== NONE && earlier.length < before; cursor = previous[cursor]!) {
      earlier.unshift(this.entries[cursor]!.document);
    }
    const later: SemanticDocument[] = [];
    for (let cursor = next[ordinal]!; cursor !== NONE && later.length < after; cursor = next[cursor]!) {
      later.push(this.entries[cursor]!.document);
    }
    return { before: earlier, after: later };
  }

  async list(filter: SemanticFilter): Promise<SemanticDocument[]> {
    const found: SemanticDocument[] = [];
    for (const ordinal of this.inWindow(filter) ?? this.entries.keys()) {
      const entry = this.entries[ordinal];
      if (entry && matchesFilter(entry.document, filter)) found.push(entry.document);
    }
    return found.sort((left, right) => left.createdAt - right.createdAt);
  }

  async delete(filter: SemanticFilter): Promise<void> {
    for (const ordinal of this.inWindow(filter) ?? this.entries.keys()) {
      const entry = this.entries[ordinal];
      if (entry && matchesFilter(entry.document, filter)) this.remove(ordinal);
    }
    this.compactIfSparse();
  }

  /**
   * The ordinals (dead ones included) of the documents whose time meets the filter's window, found
   * through the time index; `undefined` without a window, or when the window holds more than an
   * eighth of the documents (a scan is then as cheap).
   */
  private inWindow(filter: SemanticFilter): number[] | undefined {
    if (filter.after === undefined && filter.before === undefined) return undefined;
    const found = this.times.within(filter, this.entries.length, Math.max(256, this.liveCount >> 3));
    return found?.ordinals.sort((left, right) => left - right);
  }

  private addOne(document: SemanticDocument): void {
    if (this.ordinalById.has(document.id)) this.remove(this.ordinalById.get(document.id)!);
    const chain = document.sessionId ?? "";
    const replaced = this.chains.holding(chain, document.messageId);
    const ordinal = this.entries.length;
    const counts = new Map<string, number>();
    const terms = analyzeText(document.content);
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const entry: Entry = {
      document,
      terms: [],
      length: terms.length,
      chain,
      speaker: speakerTerm(document.content),
      used: ++this.tick,
    };
    this.entries.push(entry);
    const { sessionId, userId } = document;
    this.columns.set(ordinal, {
      length: terms.length,
      sessionId,
      userId,
      asks: document.content.includes("?"),
      speaker: entry.speaker,
      dated: mentionsTime(document.content),
    });
    if (replaced !== undefined && this.entries[replaced]) {
      // Take the old document's place in its session's order.
      this.chains.replace(ordinal, replaced, chain);
      this.remove(replaced, false);
    } else this.chains.append(ordinal, chain);
    this.ordinalById.set(document.id, ordinal);
    if (document.messageId !== undefined) this.chains.setMessage(chain, document.messageId, ordinal);
    for (const [term, count] of counts) {
      const list = this.postings.add(term, ordinal, count, terms.length);
      list.documents++;
      entry.terms.push(list);
    }
    if (entry.speaker !== undefined) this.speakers.set(entry.speaker, (this.speakers.get(entry.speaker) ?? 0) + 1);
    this.times.add(ordinal, document.createdAt, document.mentions);
    this.livePostings += counts.size;
    this.liveCount++;
    this.totalLength += terms.length;
  }

  private remove(ordinal: number, unlink = true): void {
    const entry = this.entries[ordinal];
    if (!entry) return;
    if (unlink) this.chains.unlink(ordinal, entry.chain);
    for (const list of entry.terms) list.documents--;
    if (this.ordinalById.get(entry.document.id) === ordinal) this.ordinalById.delete(entry.document.id);
    this.chains.deleteMessage(entry.chain, entry.document.messageId, ordinal);
    const speaking = entry.speaker === undefined ? 0 : this.speakers.get(entry.speaker)! - 1;
    if (speaking > 0) this.speakers.set(entry.speaker!, speaking);
    else if (entry.speaker !== undefined) this.speakers.delete(entry.speaker);
    this.columns.release({
      sessionId: entry.document.sessionId,
      userId: entry.document.userId,
      speaker: entry.speaker,
    });
    this.times.remove(entry.document.mentions);
    this.livePostings -= entry.terms.length;
    this.deadPostings += entry.terms.length;
    this.liveCount--;
    this.totalLength -= entry.length;
    this.entries[ordinal] = undefined;
  }

  /** Removes `count` documents by the eviction policy and tells `onEvict`. */
  private evict(count: number): void {
    const chosen = pickEvictions(this.entries, this.oldest, count, this.options.eviction);
    const evicted = chosen.map((ordinal) => this.entries[ordinal]!.document);
    for (const ordinal of chosen) this.remove(ordinal);
    while (this.oldest < this.entries.length && !this.entries[this.oldest]) this.oldest++;
    this.compactIfSparse();
    try {
      this.options.onEvict?.(evicted);
    } catch {
      // An archiving callback must not break a write.
    }
  }

  /**
   * Rebuilds the posting lists once most of their entries point at deleted documents, and
   * renumbers the documents once most ordinals are dead, so memory follows the live documents.
   */
  private compactIfSparse(): void {
    if (this.entries.length > 1024 && this.entries.length > 2 * this.liveCount) this.renumber();
    if (this.times.sparse) this.times.rebuild((ordinal) => (this.entries[ordinal] ? ordinal : NONE));
    if (this.deadPostings < 1024 || this.deadPostings < this.livePostings) return;
    this.postings.rebuild(
      (ordinal) => (this.entries[ordinal] ? ordinal : NONE),
      (ordinal) => this.entries[ordinal]!.length,
    );
    this.deadPostings = 0;
  }

  /** Gives the live documents the ordinals 0..n-1, keeping their order, and rewrites every reference. */
  private renumber(): void {
    const next = new Int32Array(this.entries.length).fill(NONE);
    const live: Entry[] = [];
    this.entries.forEach((entry, ordinal) => {
      if (entry) next[ordinal] = live.push(entry) - 1;
    });
    const map = (ordinal: number) => (ordinal === NONE ? NONE : next[ordinal]!);
    for (const [key, ordinal] of this.ordinalById) this.ordinalById.set(key, map(ordinal));
    this.chains.renumber(map);
    this.postings.rebuild(map, (ordinal) => this.entries[ordinal]!.length);
    this.times.rebuild(map);
    this.columns.renumber(next, live.length);
    this.deadPostings = 0;
    this.entries = live;
    this.oldest = 0;
    this.scratch.clear();
  }
}
