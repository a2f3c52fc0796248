import {
  coordinated,
  finalScore,
  lendingFactor,
  NO_NEIGHBOUR,
  type LendingOptions,
  type ScoringColumns,
} from "./lexical-scoring";
import { seek } from "./posting-lists";
import { kthLargest, pushBounded, topK } from "./top-k";

/**
 * The two lexical searches of `InMemorySemanticIndex`. `searchExhaustive` scores every posting of
 * every query term; `searchPruned` (MaxScore, Turtle and Flood 1995) skips the documents that
 * cannot reach the top k and returns exactly the same documents, scores and order. Both read
 * only typed arrays per posting and per document (`Int32Array` postings, `DocumentColumns`), never
 * the document objects, and reuse the index's scratch arrays (no allocation per document).
 */

/** One query term: its posting list and the bounds pruning needs. */
export interface QueryTerm {
  /** Flat [ordinal, term frequency, …], ordinals ascending; dead ordinals fail `passes`. */
  list: Int32Array;
  idf: number;
  /** idf × (1 + ln(frequency in the query)). */
  weight: number;
  /** At least `weight × saturation` of every posting in `list`. */
  bound: number;
}

/** What a search reads of the index, and scratch arrays indexed by ordinal (zero where untouched). */
export interface LexicalCorpus {
  /** Session neighbours and question marks, by ordinal. */
  columns: ScoringColumns;
  /** Length in terms of each document, by ordinal (what `saturation` needs, without reading the entry). */
  lengths: Int32Array;
  /** The document is live and passes the read's filter (the index resets the scratch arrays of these). */
  passes(ordinal: number): boolean;
  /** BM25 term-frequency saturation of a term occurring `frequency` times in a document of `length` terms. */
  saturation(frequency: number, length: number): number;
  coordination: number;
  lending: LendingOptions | undefined;
  /** Multiplier of a turn's final score for this query (speaker and time boosts, see `boostOf`), by ordinal. */
  boost(ordinal: number): number;
  /** At least every `boost`, and at least 1. */
  maxBoost: number;
  own: Float64Array;
  matched: Float64Array;
  flags: Uint8Array;
}

const KNOWN = 1;
const CANDIDATE = 2;
/** Past every ordinal. */
const END = 0x7fffffff;
/** Relative slack for floating-point rounding in the bounds: pruning only ever keeps more. */
const SLACK = 1 + 1e-9;
/** Documents of the strongest term scored before the walk, to start with a useful cut. */
const SEED = 64;

/** Scores every posting (term at a time), then every hit and the turns it lends to. */
export function searchExhaustive(
  terms: readonly QueryTerm[],
  queryMass: number,
  corpus: LexicalCorpus,
  limit: number,
): [number, number][] {
  const { own, matched, flags, lengths } = corpus;
  const hits: number[] = [];
  for (const term of terms) {
    const list = term.list;
    for (let index = 0; index < list.length; index += 2) {
      const ordinal = list[index]!;
      if (!corpus.passes(ordinal)) continue;
      if (flags[ordinal] === 0) {
        flags[ordinal] = KNOWN;
        hits.push(ordinal);
      }
      own[ordinal] = own[ordinal]! + term.weight * corpus.saturation(list[index + 1]!, lengths[ordinal]!);
      matched[ordinal] = matched[ordinal]! + term.idf;
    }
  }
  for (const ordinal of hits)
    own[ordinal] = coordinated(own[ordinal]!, matched[ordinal]!, queryMass, corpus.coordination);
  return rank(neighbourhoods(hits, corpus), corpus, (ordinal) => own[ordinal]!, limit);
}

/**
 * MaxScore, document at a time. A document can only reach the top k if its own score, or that of
 * a turn lending to it, is at least the k-th best lower bound found so far divided by the most
 * lending and the boosts can multiply a score by (`cut`). Terms whose summed bounds stay
 * under `cut` stop producing candidates; they are only looked up for the documents the others
 * produce. At the end the k-th best lower bound is recomputed from the strong documents (own
 * score ≥ `cut`), which lifts the cut; the documents reaching it and the turns they lend to are
 * bounded, and those that can still reach the k-th lower bound scored exactly as
 * `searchExhaustive` scores them.
 */
export function searchPruned(
  terms: readonly QueryTerm[],
  queryMass: number,
  corpus: LexicalCorpus,
  limit: number,
): [number, number][] {
  const { own, flags, columns, lengths } = corpus;
  const count = terms.length;
  const order = terms.map((_, index) => index).sort((left, right) => terms[left]!.bound - terms[right]!.bound);
  // Bounds of a document matching only terms order[0..j-1], which stop producing candidates first.
  const boundSum = new Float64Array(count + 1);
  const idfSum = new Float64Array(count + 1);
  for (let j = 0; j < count; j++) {
    boundSum[j + 1] = boundSum[j]! + terms[order[j]!]!.bound;
    idfSum[j + 1] = idfSum[j]! + terms[order[j]!]!.idf;
  }
  const bound = (score: number, matchedIdf: number) =>
    coordinated(score, matchedIdf, queryMass, corpus.coordination) * SLACK;
  const boost = corpus.boost;
  // The most lending and the boosts can multiply the largest own score among a document and its lenders by.
  const factor = corpus.maxBoost * lendingFactor(corpus.lending) * SLACK;
  // By bound ascending: the posting lists, where the walk is in each, and their term's index.
  const lists = order.map((index) => terms[index]!.list);
  const positions = new Int32Array(count);
  const frequencies = new Float64Array(count);
  const hints = new Int32Array(count);
  const best: number[] = []; // min-heap of the best lower bounds of final scores
  let cut = 0;
  let firstEssential = 0;
  const survivors: number[] = [];
  const ownOf = (ordinal: number): number => {
    if ((flags[ordinal]! & KNOWN) !== 0) return own[ordinal]!;
    if (!corpus.passes(ordinal)) return 0;
    for (let index = 0; index < count; index++) {
      // The documents looked up are mostly turns next to one another: gallop on from the last one.
      const list = terms[index]!.list;
      const hint = hints[index]!;
      const position = seek(list, hint < list.length && list[hint]! <= ordinal ? hint : 0, ordinal);
      hints[index] = position;
      frequencies[index] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
    }
    const score = ownScore(terms, frequencies, lengths[ordinal]!, queryMass, corpus);
    own[ordinal] = score;
    flags[ordinal] = flags[ordinal]! | KNOWN;
    return score;
  };
  const raise = (lower: number) => {
    pushBounded(best, lower, limit);
    if (best.length === limit) {
      cut = best[0]! / factor;
      while (firstEssential < count && bound(boundSum[firstEssential + 1]!, idfSum[firstEssential + 1]!) < cut)
        firstEssential++;
    }
  };
  // Seed the lower bounds with the first documents of the term with the highest bound (often
  // the rarest), so the cut rises before the common terms' long lists are walked.
  const seedList = terms[order[count - 1]!]!.list;
  for (let index = 0; index < Math.min(seedList.length, 2 * Math.max(limit, SEED)); index += 2) {
    const ordinal = seedList[index]!;
    if (!corpus.passes(ordinal)) continue;
    const score = ownOf(ordinal);
    const lower = score * boost(ordinal);
    if (best.length < limit || lower > best[0]!) raise(lower);
  }
  while (firstEssential < count) {
    let ordinal = END;
    for (let j = firstEssential; j < count; j++) {
      const list = lists[j]!;
      const position = positions[j]!;
      if (position < list.length && list[position]! < ordinal) ordinal = list[position]!;
    }
    if (ordinal === END) break;
    for (let j = firstEssential; j < count; j++) {
      const list = lists[j]!;
      const position = positions[j]!;
      if (position < list.length && list[position] === ordinal) {
        frequencies[order[j]!] = list[position + 1]!;
        positions[j] = position + 2;
      } else frequencies[order[j]!] = 0;
    }
    if (!corpus.passes(ordinal)) continue;
    if ((flags[ordinal]! & KNOWN) !== 0) {
      // Seeded: scored already, and its lower bound is in `best`.
      if (own[ordinal]! >= cut) survivors.push(ordinal);
      continue;
    }
    const length = lengths[ordinal]!;
    if (firstEssential > 0) {
      let partial = 0;
      let partialIdf = 0;
      for (let j = firstEssential; j < count; j++) {
        const index = order[j]!;
        if (frequencies[index]! === 0) continue;
        partial += terms[index]!.weight * corpus.saturation(frequencies[index]!, length);
        partialIdf += terms[index]!.idf;
      }
      if (bound(partial + boundSum[firstEssential]!, partialIdf + idfSum[firstEssential]!) < cut) continue;
      for (let j = 0; j < firstEssential; j++) {
        const list = lists[j]!;
        const position = seek(list, positions[j]!, ordinal);
        positions[j] = position;
        frequencies[order[j]!] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
      }
    }
    const score = ownScore(terms, frequencies, length, queryMass, corpus);
    own[ordinal] = score;
    flags[ordinal] = KNOWN;
    if (score >= cut) survivors.push(ordinal);
    // A lower bound of its final score: what the turns scored so far (mostly those before it)
    // lend to it; only worth computing for a document that may make the top k itself.
    const lower = score >= cut ? finalScore(ordinal, columns, known, corpus.lending, boost) : score * boost(ordinal);
    if (best.length < limit || lower > best[0]!) raise(lower);
  }

  // Every document not scored has an own score under `cut`: bound each candidate's final score
  // with that, and score exactly only those whose bound reaches the k-th best lower bound.
  const strong = survivors.filter((ordinal) => own[ordinal]! >= cut);
  // The k-th best lower bound: of the walk's, or of the strong documents' final scores with what
  // every document scored by now lends (the tighter of two lower bounds of the k-th best score).
  const lowers = strong.map((ordinal) => finalScore(ordinal, columns, known, corpus.lending, boost));
  const threshold = Math.max(
    best.length === limit ? best[0]! : 0,
    strong.length >= limit ? kthLargest(lowers, limit) : 0,
  );
  // Which also lifts the cut a candidate's own score, or a lender's, must reach: a final score is
  // at most `factor` (the most lending and every boost add) times the largest of those.
  const lifted = threshold / factor;
  const candidates = neighbourhoods(
    strong.filter((ordinal) => own[ordinal]! >= lifted),
    corpus,
  );
  const unknownAtMost = (ordinal: number) => ((flags[ordinal]! & KNOWN) !== 0 ? own[ordinal]! : cut);
  const kept = candidates.filter(
    (ordinal) => finalScore(ordinal, columns, unknownAtMost, corpus.lending, boost) * SLACK >= threshold,
  );
  return rank(kept, corpus, ownOf, limit);

  function known(ordinal: number): number {
    return (flags[ordinal]! & KNOWN) !== 0 ? own[ordinal]! : 0;
  }
}

/** Own score of a document from its term frequencies (0: absent), summed in query order. */
function ownScore(
  terms: readonly QueryTerm[],
  frequencies: Float64Array,
  length: number,
  queryMass: number,
  corpus: LexicalCorpus,
): number {
  let score = 0;
  let matchedIdf = 0;
  for (let index = 0; index < terms.length; index++) {
    if (frequencies[index]! === 0) continue;
    score = score + terms[index]!.weight * corpus.saturation(frequencies[index]!, length);
    matchedIdf = matchedIdf + terms[index]!.idf;
  }
  return matchedIdf === 0 ? 0 : coordinated(score, matchedIdf, queryMass, corpus.coordination);
}

/** The documents that pass among `hits` and the turns they lend to, each once (marked CANDIDATE). */
function neighbourhoods(hits: readonly number[], corpus: LexicalCorpus): number[] {
  const { flags, columns, lending } = corpus;
  const candidates: number[] = [];
  const consider = (ordinal: number) => {
    if ((flags[ordinal]! & CANDIDATE) !== 0 || !corpus.passes(ordinal)) return;
    flags[ordinal] = flags[ordinal]! | CANDIDATE;
    candidates.push(ordinal);
  };
  for (const ordinal of hits) {
    consider(ordinal);
    if (!lending) continue;
    let previous = columns.previous[ordinal]!;
    let next = columns.next[ordinal]!;
    for (let step = 0; step < lending.window; step++) {
      if (previous !== NO_NEIGHBOUR) {
        consider(previous);
        previous = columns.previous[previous]!;
      }
      if (next !== NO_NEIGHBOUR) {
        consider(next);
        next = columns.next[next]!;
      }
    }
  }
  return candidates;
}

/** The best `limit` of `candidates` by final score. */
function rank(
  candidates: readonly number[],
  corpus: LexicalCorpus,
  ownOf: (ordinal: number) => number,
  limit: number,
): [number, number][] {
  const scores = new Map<number, number>();
  for (const ordinal of candidates)
    scores.set(ordinal, finalScore(ordinal, corpus.columns, ownOf, corpus.lending, corpus.boost));
  return topK(scores, limit);
}

/**
 * Every document a query of rare terms scores above 0: those in the terms' posting lists that
 * pass the filter, and the turns they lend to. For following the first hits, whose terms are in
 * a few documents each.
 */
export function everyScored(terms: readonly QueryTerm[], corpus: LexicalCorpus): number[] {
  const found = new Set<number>();
  const { previous: before, next: after } = corpus.columns;
  const window = corpus.lending?.window ?? 0;
  for (const term of terms) {
    for (let index = 0; index < term.list.length; index += 2) {
      const ordinal = term.list[index]!;
      if (!corpus.passes(ordinal)) continue;
      found.add(ordinal);
      let previous = before[ordinal]!;
      let next = after[ordinal]!;
      for (let step = 0; step < window; step++) {
        if (previous !== NO_NEIGHBOUR) {
          if (corpus.passes(previous)) found.add(previous);
          previous = before[previous]!;
        }
        if (next !== NO_NEIGHBOUR) {
          if (corpus.passes(next)) found.add(next);
          next = after[next]!;
        }
      }
    }
  }
  return [...found];
}

/**
 * Final scores of the given documents (which pass the filter), as both searches score them, for
 * the few documents a follow-up query adds. With `searched`, a search of these terms has just
 * run and its own scores in the scratch arrays are reused (the same to the last bit); the other
 * own scores are looked up, and the scratch arrays are left as they are. With `keep` (for a first
 * query, before any search; `ordinals` ascending), the own scores it computes are kept in the scratch arrays as a search
 * keeps them, so scoring the documents of a time window costs a search of just those.
 */
export function scoreEach(
  terms: readonly QueryTerm[],
  queryMass: number,
  corpus: LexicalCorpus,
  ordinals: readonly number[],
  searched: boolean,
  keep = false,
): number[] {
  const { own, flags, lengths } = corpus;
  const frequencies = new Float64Array(terms.length);
  const looked = new Map<number, number>();
  const ownOf = (ordinal: number): number => {
    if ((searched || keep) && (flags[ordinal]! & KNOWN) !== 0) return own[ordinal]!;
    let score = keep ? undefined : looked.get(ordinal);
    if (score === undefined) {
      score = 0;
      if (corpus.passes(ordinal)) {
        for (let index = 0; index < terms.length; index++) {
          const list = terms[index]!.list;
          const position = seek(list, 0, ordinal);
          frequencies[index] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
        }
        score = ownScore(terms, frequencies, lengths[ordinal]!, queryMass, corpus);
        if (keep) {
          own[ordinal] = score;
          flags[ordinal] = flags[ordinal]! | KNOWN;
        }
      }
      if (!keep) looked.set(ordinal, score);
    }
    return score;
  };
  if (keep) {
    // Own scores of the ordinals in ascending order, each term's postings walked forward once.
    const cursors = new Int32Array(terms.length);
    for (const ordinal of ordinals) {
      if ((flags[ordinal]! & KNOWN) !== 0 || !corpus.passes(ordinal)) continue;
      for (let index = 0; index < terms.length; index++) {
        const list = terms[index]!.list;
        const position = (cursors[index] = seek(list, cursors[index]!, ordinal));
        frequencies[index] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
      }
      own[ordinal] = ownScore(terms, frequencies, lengths[ordinal]!, queryMass, corpus);
      flags[ordinal] = flags[ordinal]! | KNOWN;
    }
  }
  return ordinals.map((ordinal) => finalScore(ordinal, corpus.columns, ownOf, corpus.lending, corpus.boost));
}
