import { coordinated, finalScore, lendingFactor, NO_NEIGHBOUR, type LendingOptions, type ScoringEntry } from "./lexical-scoring";
import { topK } from "./top-k";

/**
 * The two lexical searches of `InMemorySemanticIndex`. `searchExhaustive` scores every posting of
 * every query term; `searchPruned` (MaxScore, Turtle and Flood 1995) skips the documents that
 * cannot reach the top k and returns exactly the same documents, scores and order.
 */

/** One query term: its posting list and the bounds pruning needs. */
export interface QueryTerm {
  /** Flat [ordinal, term frequency, …], ordinals ascending; dead ordinals fail `passes`. */
  list: readonly number[];
  idf: number;
  /** idf × (1 + ln(frequency in the query)). */
  weight: number;
  /** At least `weight × saturation` of every posting in `list`. */
  bound: number;
}

/** What a search reads of the index, and scratch arrays indexed by ordinal (zero where untouched). */
export interface LexicalCorpus {
  entries: readonly (ScoringEntry | undefined)[];
  /** The document is live and passes the read's filter (the index resets the scratch arrays of these). */
  passes(ordinal: number): boolean;
  /** BM25 term-frequency saturation of a term occurring `frequency` times in a document of `length` terms. */
  saturation(frequency: number, length: number): number;
  coordination: number;
  lending: LendingOptions | undefined;
  /** Multiplier of a turn's final score for this query (speaker and time boosts); 1 for most. */
  boost(entry: ScoringEntry): number;
  /** At least every `boost`, and at least 1. */
  maxBoost: number;
  own: Float64Array;
  matched: Float64Array;
  flags: Uint8Array;
}

const KNOWN = 1;
const CANDIDATE = 2;
/** Relative slack for floating-point rounding in the bounds: pruning only ever keeps more. */
const SLACK = 1 + 1e-9;
/** Documents of the strongest term scored before the walk, to start with a useful cut. */
const SEED = 64;

/** Scores every posting (term at a time), then every hit and the turns it lends to. */
export function searchExhaustive(terms: readonly QueryTerm[], queryMass: number, corpus: LexicalCorpus, limit: number): [number, number][] {
  const { own, matched, flags, entries } = corpus;
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
      own[ordinal] = own[ordinal]! + term.weight * corpus.saturation(list[index + 1]!, entries[ordinal]!.length);
      matched[ordinal] = matched[ordinal]! + term.idf;
    }
  }
  for (const ordinal of hits) own[ordinal] = coordinated(own[ordinal]!, matched[ordinal]!, queryMass, corpus.coordination);
  return rank(neighbourhoods(hits, corpus), corpus, (ordinal) => own[ordinal]!, limit);
}

/**
 * MaxScore, document at a time. A document can only reach the top k if its own score, or that of
 * a turn lending to it, is at least the k-th best lower bound found so far divided by the most
 * lending and the boosts can multiply a score by (`cut`). Terms whose summed bounds stay
 * under `cut` stop producing candidates; they are only looked up for the documents the others
 * produce. The documents that can still reach the top k, and the turns they lend to, are then
 * scored exactly as `searchExhaustive` scores them.
 */
export function searchPruned(terms: readonly QueryTerm[], queryMass: number, corpus: LexicalCorpus, limit: number): [number, number][] {
  const { own, flags, entries } = corpus;
  const count = terms.length;
  const order = terms.map((_, index) => index).sort((left, right) => terms[left]!.bound - terms[right]!.bound);
  // Bounds of a document matching only terms order[0..j-1], which stop producing candidates first.
  const boundSum = new Float64Array(count + 1);
  const idfSum = new Float64Array(count + 1);
  for (let j = 0; j < count; j++) {
    boundSum[j + 1] = boundSum[j]! + terms[order[j]!]!.bound;
    idfSum[j + 1] = idfSum[j]! + terms[order[j]!]!.idf;
  }
  const bound = (score: number, matchedIdf: number) => coordinated(score, matchedIdf, queryMass, corpus.coordination) * SLACK;
  const factor = corpus.maxBoost * lendingFactor(corpus.lending) * SLACK;
  const positions = new Int32Array(count);
  const frequencies = new Float64Array(count);
  const best: number[] = []; // min-heap of the best lower bounds of final scores
  let cut = 0;
  let firstEssential = 0;
  const survivors: number[] = [];
  const ownOf = (ordinal: number): number => {
    if ((flags[ordinal]! & KNOWN) !== 0) return own[ordinal]!;
    if (!corpus.passes(ordinal)) return 0;
    for (let index = 0; index < count; index++) frequencies[index] = lookUp(terms[index]!.list, ordinal);
    const score = ownScore(terms, frequencies, entries[ordinal]!.length, queryMass, corpus);
    own[ordinal] = score;
    flags[ordinal] = flags[ordinal]! | KNOWN;
    return score;
  };
  const raise = (lower: number) => {
    pushBounded(best, lower, limit);
    if (best.length === limit) {
      cut = best[0]! / factor;
      while (firstEssential < count && bound(boundSum[firstEssential + 1]!, idfSum[firstEssential + 1]!) < cut) firstEssential++;
    }
  };
  // Seed the lower bounds with the first documents of the term with the highest bound (often
  // the rarest), so the cut rises before the common terms' long lists are walked.
  const seedList = terms[order[count - 1]!]!.list;
  for (let index = 0; index < Math.min(seedList.length, 2 * Math.max(limit, SEED)); index += 2) {
    const ordinal = seedList[index]!;
    if (!corpus.passes(ordinal)) continue;
    const score = ownOf(ordinal);
    const lower = score * corpus.boost(entries[ordinal]!);
    if (best.length < limit || lower > best[0]!) raise(lower);
  }
  while (firstEssential < count) {
    let ordinal = Infinity;
    for (let j = firstEssential; j < count; j++) {
      const index = order[j]!;
      const list = terms[index]!.list;
      if (positions[index]! < list.length && list[positions[index]!]! < ordinal) ordinal = list[positions[index]!]!;
    }
    if (ordinal === Infinity) break;
    for (let j = firstEssential; j < count; j++) {
      const index = order[j]!;
      const list = terms[index]!.list;
      const position = positions[index]!;
      frequencies[index] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
      if (frequencies[index]! > 0) positions[index] = position + 2;
    }
    if (!corpus.passes(ordinal)) continue;
    if ((flags[ordinal]! & KNOWN) !== 0) {
      // Seeded: scored already, and its lower bound is in `best`.
      if (own[ordinal]! >= cut) survivors.push(ordinal);
      continue;
    }
    const length = entries[ordinal]!.length;
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
        const index = order[j]!;
        const list = terms[index]!.list;
        const position = seek(list, positions[index]!, ordinal);
        positions[index] = position;
        frequencies[index] = position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
      }
    }
    const score = ownScore(terms, frequencies, length, queryMass, corpus);
    own[ordinal] = score;
    flags[ordinal] = KNOWN;
    if (score >= cut) survivors.push(ordinal);
    // A lower bound of its final score: what the turns scored so far (mostly those before it) lend.
    const lower = finalScore(ordinal, entries, known, corpus.lending, corpus.boost);
    if (best.length < limit || lower > best[0]!) raise(lower);
  }

  // Every document not scored has an own score under `cut`: bound each candidate's final score
  // with that, and score exactly only those whose bound reaches the k-th best lower bound.
  const candidates = neighbourhoods(
    survivors.filter((ordinal) => own[ordinal]! >= cut),
    corpus,
  );
  const lowers = candidates.map((ordinal) => finalScore(ordinal, entries, known, corpus.lending, corpus.boost));
  const threshold = candidates.length > limit ? kthLargest(lowers, limit) : 0;
  const unknownAtMost = (ordinal: number) => ((flags[ordinal]! & KNOWN) !== 0 ? own[ordinal]! : cut);
  const kept = candidates.filter(
    (ordinal) => finalScore(ordinal, entries, unknownAtMost, corpus.lending, corpus.boost) * SLACK >= threshold,
  );
  return rank(kept, corpus, ownOf, limit);

  function known(ordinal: number): number {
    return (flags[ordinal]! & KNOWN) !== 0 ? own[ordinal]! : 0;
  }
}

/** The k-th largest of `values` (k ≤ length). */
function kthLargest(values: readonly number[], k: number): number {
  const heap: number[] = [];
  for (const value of values) if (heap.length < k || value > heap[0]!) pushBounded(heap, value, k);
  return heap[0]!;
}

/** Own score of a document from its term frequencies (0: absent), summed in query order. */
function ownScore(terms: readonly QueryTerm[], frequencies: Float64Array, length: number, queryMass: number, corpus: LexicalCorpus): number {
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
  const { flags, entries, lending } = corpus;
  const candidates: number[] = [];
  const consider = (ordinal: number) => {
    if ((flags[ordinal]! & CANDIDATE) !== 0 || !corpus.passes(ordinal)) return;
    flags[ordinal] = flags[ordinal]! | CANDIDATE;
    candidates.push(ordinal);
  };
  for (const ordinal of hits) {
    consider(ordinal);
    if (!lending) continue;
    let previous = entries[ordinal]!.previous;
    let next = entries[ordinal]!.next;
    for (let step = 0; step < lending.window; step++) {
      if (previous !== NO_NEIGHBOUR) {
        consider(previous);
        previous = entries[previous]!.previous;
      }
      if (next !== NO_NEIGHBOUR) {
        consider(next);
        next = entries[next]!.next;
      }
    }
  }
  return candidates;
}

/** The best `limit` of `candidates` by final score. */
function rank(candidates: readonly number[], corpus: LexicalCorpus, ownOf: (ordinal: number) => number, limit: number): [number, number][] {
  const scores = new Map<number, number>();
  for (const ordinal of candidates) scores.set(ordinal, finalScore(ordinal, corpus.entries, ownOf, corpus.lending, corpus.boost));
  return topK(scores, limit);
}

/**
 * Every document a query of rare terms scores above 0: those in the terms' posting lists that
 * pass the filter, and the turns they lend to. For following the first hits, whose terms are in
 * a few documents each.
 */
export function everyScored(terms: readonly QueryTerm[], corpus: LexicalCorpus): number[] {
  const found = new Set<number>();
  const window = corpus.lending?.window ?? 0;
  for (const term of terms) {
    for (let index = 0; index < term.list.length; index += 2) {
      const ordinal = term.list[index]!;
      if (!corpus.passes(ordinal)) continue;
      found.add(ordinal);
      let previous = corpus.entries[ordinal]!.previous;
      let next = corpus.entries[ordinal]!.next;
      for (let step = 0; step < window; step++) {
        if (previous !== NO_NEIGHBOUR) {
          if (corpus.passes(previous)) found.add(previous);
          previous = corpus.entries[previous]!.previous;
        }
        if (next !== NO_NEIGHBOUR) {
          if (corpus.passes(next)) found.add(next);
          next = corpus.entries[next]!.next;
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
 * own scores are looked up, and the scratch arrays are left as they are.
 */
export function scoreEach(terms: readonly QueryTerm[], queryMass: number, corpus: LexicalCorpus, ordinals: readonly number[], searched: boolean): number[] {
  const { own, flags, entries } = corpus;
  const frequencies = new Float64Array(terms.length);
  const looked = new Map<number, number>();
  const ownOf = (ordinal: number): number => {
    if (searched && (flags[ordinal]! & KNOWN) !== 0) return own[ordinal]!;
    let score = looked.get(ordinal);
    if (score === undefined) {
      score = 0;
      if (corpus.passes(ordinal)) {
        for (let index = 0; index < terms.length; index++) frequencies[index] = lookUp(terms[index]!.list, ordinal);
        score = ownScore(terms, frequencies, entries[ordinal]!.length, queryMass, corpus);
      }
      looked.set(ordinal, score);
    }
    return score;
  };
  return ordinals.map((ordinal) => finalScore(ordinal, entries, ownOf, corpus.lending, corpus.boost));
}

/** Pushes onto a min-heap kept at most `limit` long (dropping its smallest). */
function pushBounded(heap: number[], value: number, limit: number): void {
  if (heap.length === limit) {
    heap[0] = value;
    for (let index = 0; ; ) {
      const left = 2 * index + 1;
      const right = left + 1;
      let least = index;
      if (left < heap.length && heap[left]! < heap[least]!) least = left;
      if (right < heap.length && heap[right]! < heap[least]!) least = right;
      if (least === index) return;
      [heap[least], heap[index]] = [heap[index]!, heap[least]!];
      index = least;
    }
  }
  heap.push(value);
  for (let index = heap.length - 1; index > 0; ) {
    const parent = (index - 1) >> 1;
    if (heap[parent]! <= heap[index]!) return;
    [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
    index = parent;
  }
}

/** First pair position at or after `from` whose ordinal is at least `target` (galloping, then binary search). */
function seek(list: readonly number[], from: number, target: number): number {
  if (from >= list.length || list[from]! >= target) return from;
  let low = from; // list[low] < target
  let step = 2;
  let high = from + step;
  while (high < list.length && list[high]! < target) {
    low = high;
    step *= 2;
    high = low + step;
  }
  high = Math.min(high, list.length);
  // Invariant: list[low] < target; list[high] >= target or high = length; both even.
  while (high - low > 2) {
    const middle = low + (((high - low) >> 2) << 1);
    if (list[middle]! < target) low = middle;
    else high = middle;
  }
  return high;
}

/** Term frequency of `ordinal` in a posting list (0: absent). */
function lookUp(list: readonly number[], ordinal: number): number {
  const position = seek(list, 0, ordinal);
  return position < list.length && list[position] === ordinal ? list[position + 1]! : 0;
}
