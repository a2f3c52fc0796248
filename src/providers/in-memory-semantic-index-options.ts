import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { nonNegativeOption } from "../errors/check-option";
import type { SemanticDocument } from "./semantic-index";

/** Options of `InMemorySemanticIndex`: ranking, then the memory bound. */
export interface InMemorySemanticIndexOptions {
  /** BM25 term-frequency saturation. @default 1.2 */
  k1?: number;
  /** BM25 length normalisation, 0 (none) to 1 (full). @default 0.75 */
  b?: number;
  /**
   * Share of a turn's lexical score lent to its neighbouring turns of the same session. A turn
   * that answers a question often shares no word with the query while the turn before it does.
   * 0 turns it off. @default 0.5
   */
  contextWeight?: number;
  /** Turns on each side of a hit that receive its lent score (halved at each further step). @default 2 */
  contextWindow?: number;
  /**
   * Multiplier of what a turn holding a question ("?") lends to the turns after it, which are
   * likely its answer. 1 lends like any other turn. @default 2
   */
  questionWeight?: number;
  /**
   * Coordination: each turn's BM25 score is scaled by the share of the query's IDF mass among
   * the terms it contains, to this power, favouring turns that match more of the question.
   * 0 turns it off. @default 1
   */
  coordination?: number;
  /**
   * Multiplier of the score of turns spoken by someone the query names, for transcript-style
   * contents ("Caroline: …"). 1 turns it off. @default 1.5
   */
  speakerWeight?: number;
  /**
   * Multiplier of the score of turns that mention a time ("yesterday", "last week", "in May")
   * when the query asks when something happened ("When did…", "What year…"). 1 turns it off.
   * @default 1.5
   */
  timeWeight?: number;
  /**
   * Entity following, for questions whose evidence spans several turns: the rarest terms of the
   * first three hits that the query does not hold (names, places; terms in 2 to 5 documents, at
   * most 3) make a second query, whose scores are added at this weight (relative to the best
   * of each query). 0 turns it off. @default 0.3
   */
  followWeight?: number;
  /**
   * Pruned search (MaxScore): skips the postings of documents that cannot reach the top results
   * and returns exactly what scoring every posting returns, faster on large indexes. `false`
   * scores every posting (the reference the pruned search is tested against). @default true
   */
  pruning?: boolean;
  /**
   * Most documents kept. Past it, adding evicts documents by `eviction`, so the index's memory
   * stays bounded: about 650 bytes of index a short chat turn (posting lists, typed columns,
   * lookup maps), plus 20 bytes a time in the time lookup (its own and each it mentions), plus the
   * document itself; about 1 KB together for a LoCoMo turn at 100,000.
   * `Infinity` keeps everything. @default 10000
   */
  maxDocuments?: number;
  /**
   * Which documents go first when the index is full: `"oldest"` (first added; a replaced
   * document counts as new) or `"least-recently-recalled"` (the one a search returned longest
   * ago, or the oldest never returned). @default "oldest"
   */
  eviction?: "oldest" | "least-recently-recalled";
  /** Called with the documents evicted, e.g. to archive them elsewhere. Its errors are ignored. */
  onEvict?: (documents: SemanticDocument[]) => void;
}

/** The options with their defaults, checked (see `resolveOptions`). */
export type ResolvedOptions = Required<Omit<InMemorySemanticIndexOptions, "onEvict">> &
  Pick<InMemorySemanticIndexOptions, "onEvict">;

/** Fills in the defaults and checks each option, throwing `InvalidArgumentError` for the first invalid one. */
export function resolveOptions(options: InMemorySemanticIndexOptions): ResolvedOptions {
  const k1 = nonNegativeOption(options.k1, "k1", 1.2);
  const b = nonNegativeOption(options.b, "b", 0.75);
  const contextWeight = nonNegativeOption(options.contextWeight, "contextWeight", 0.5);
  const contextWindow = Math.floor(nonNegativeOption(options.contextWindow, "contextWindow", 2));
  const questionWeight = nonNegativeOption(options.questionWeight, "questionWeight", 2);
  const coordination = nonNegativeOption(options.coordination, "coordination", 1);
  const speakerWeight = nonNegativeOption(options.speakerWeight, "speakerWeight", 1.5);
  const timeWeight = nonNegativeOption(options.timeWeight, "timeWeight", 1.5);
  const followWeight = nonNegativeOption(options.followWeight, "followWeight", 0.3);
  const pruning = options.pruning ?? true;
  const maxDocuments = options.maxDocuments ?? 10_000;
  if (!(maxDocuments === Infinity || (Number.isInteger(maxDocuments) && maxDocuments >= 1))) {
    throw new InvalidArgumentError({
      argument: "maxDocuments",
      value: options.maxDocuments,
      message: "maxDocuments must be a positive integer or Infinity.",
    });
  }
  const eviction = options.eviction ?? "oldest";
  if (eviction !== "oldest" && eviction !== "least-recently-recalled") {
    throw new InvalidArgumentError({
      argument: "eviction",
      value: options.eviction,
      message: 'eviction must be "oldest" or "least-recently-recalled".',
    });
  }
  return {
    k1,
    b,
    contextWeight,
    contextWindow,
    questionWeight,
    coordination,
    speakerWeight,
    timeWeight,
    followWeight,
    pruning,
    maxDocuments,
    eviction,
    onEvict: options.onEvict,
  };
}
