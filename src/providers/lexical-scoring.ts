import { analyzeText } from "./text-analysis";

/**
 * Scoring steps of `InMemorySemanticIndex`'s lexical search that follow BM25: coordination,
 * neighbour context lending and the boosts (speaker, time). Both searches (exhaustive and pruned, see
 * `lexical-search.ts`) compute a document's score with these functions, in the same order of
 * operations, so they agree to the last bit.
 */

/** What scoring needs to know of a document: its length, session neighbours, question mark, speaker and time words. */
export interface ScoringEntry {
  /** Terms in the document (for BM25 length normalisation). */
  length: number;
  previous: number;
  next: number;
  /** The turn holds a question, so the turns after it are likely its answer. */
  asks: boolean;
  /** Term of the speaker a transcript-style content starts with. */
  speaker: string | undefined;
  /** The turn mentions a time ("yesterday", "last week", "in May"), see `mentionsTime`. */
  dated: boolean;
}

export interface LendingOptions {
  /** Share of a turn's score lent to each adjacent turn (halved at each further step). */
  weight: number;
  /** Turns on each side that receive a share. */
  window: number;
  /** Multiplier of the shares a question turn lends to the turns after it. */
  questionWeight: number;
}

export const NO_NEIGHBOUR = -1;

/**
 * The speaker of a transcript-style turn ("Caroline: …" → the term "carolin"), when it is named
 * by one capitalised word before a colon.
 */
export function speakerTerm(content: string): string | undefined {
  const speaker = /^\s*(\p{Lu}[\p{L}\p{N}'’-]*):\s/u.exec(content)?.[1];
  const terms = speaker === undefined ? [] : analyzeText(speaker);
  return terms.length === 1 ? terms[0] : undefined;
}

/**
 * Coordination: scales a BM25 score by the share of the query's IDF mass the document matches,
 * raised to `power`, so a turn matching the rare half of a question beats one that repeats a
 * common word. Monotone in both `score` and `matched`, which makes it safe to bound.
 */
export function coordinated(score: number, matched: number, queryMass: number, power: number): number {
  if (power === 0 || queryMass <= 0) return score;
  if (power === 1) return (score * matched) / queryMass;
  return score * Math.pow(matched / queryMass, power);
}

/**
 * Most a document's final score can be, as a multiple of the largest own score among it and
 * the turns that lend to it: 1 for its own, plus every share it can receive from each side.
 */
export function lendingFactor(lending: LendingOptions | undefined): number {
  if (!lending) return 1;
  let factor = 1;
  for (let step = 0; step < lending.window; step++) factor += (lending.weight / 2 ** step) * (1 + Math.max(1, lending.questionWeight));
  return factor;
}

/**
 * A document's final score: its own score plus what the turns around it in its session lend
 * (a share of theirs, halved at each step away; a question turn lends `questionWeight` times as
 * much to the turns after it), times its boost (the speaker boost when the query names its
 * speaker, the time boost when the query asks when and the turn mentions a time).
 * `ownOf` answers 0 for a turn that does not match or does not pass the filter.
 */
export function finalScore(
  ordinal: number,
  entries: readonly (ScoringEntry | undefined)[],
  ownOf: (ordinal: number) => number,
  lending: LendingOptions | undefined,
  boost: (entry: ScoringEntry) => number,
): number {
  const entry = entries[ordinal]!;
  let total = ownOf(ordinal);
  if (lending) {
    let previous = entry.previous;
    let next = entry.next;
    for (let step = 0; step < lending.window; step++) {
      if (next !== NO_NEIGHBOUR) {
        const own = ownOf(next);
        if (own > 0) total += (lending.weight * own) / 2 ** step;
        next = entries[next]!.next;
      }
      if (previous !== NO_NEIGHBOUR) {
        const own = ownOf(previous);
        const lender = entries[previous]!;
        if (own > 0) total += ((lending.weight * own) / 2 ** step) * (lender.asks ? lending.questionWeight : 1);
        previous = lender.previous;
      }
    }
  }
  return total * boost(entry);
}

/** A query's boost of a turn: `speakerWeight` if spoken by someone it names, times `timeWeight` if dated. */
export function boostOf(named: readonly string[], speakerWeight: number, timeWeight: number): (entry: ScoringEntry) => number {
  const speaks = (entry: ScoringEntry) => speakerWeight !== 1 && entry.speaker !== undefined && named.includes(entry.speaker);
  if (timeWeight === 1) return speakerWeight === 1 ? () => 1 : (entry) => (speaks(entry) ? speakerWeight : 1);
  return (entry) => (speaks(entry) ? speakerWeight : 1) * (entry.dated ? timeWeight : 1);
}
