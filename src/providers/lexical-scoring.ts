import { analyzeText } from "./text-analysis";

/**
 * Scoring steps of `InMemorySemanticIndex`'s lexical search that follow BM25: coordination,
 * neighbour context lending and the speaker and time boosts. Both searches (exhaustive and pruned, see
 * `lexical-search.ts`) compute a document's score with these functions, in the same order of
 * operations, so they agree to the last bit.
 */

/** What lending reads of the documents, by ordinal, in typed arrays (see `DocumentColumns`). */
export interface ScoringColumns {
  /** The turns before and after it in its session, `NO_NEIGHBOUR` at the ends. */
  previous: Int32Array;
  next: Int32Array;
  /** 1: the turn holds a question, so the turns after it are likely its answer. */
  asks: Uint8Array;
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
  return score * (matched / queryMass) ** power;
}

/**
 * Most a document's final score can be, as a multiple of the largest own score among it and
 * the turns that lend to it: 1 for its own, plus every share it can receive from each side.
 */
export function lendingFactor(lending: LendingOptions | undefined): number {
  if (!lending) return 1;
  let factor = 1;
  for (let step = 0; step < lending.window; step++)
    factor += (lending.weight / 2 ** step) * (1 + Math.max(1, lending.questionWeight));
  return factor;
}

/**
 * A document's final score: its own score plus what the turns around it in its session lend
 * (a share of theirs, halved at each step away; a question turn lends `questionWeight` times as
 * much to the turns after it), times the query's `boost` of it (see `boostOf`).
 * `ownOf` answers 0 for a turn that does not match or does not pass the filter.
 */
export function finalScore(
  ordinal: number,
  columns: ScoringColumns,
  ownOf: (ordinal: number) => number,
  lending: LendingOptions | undefined,
  boost: (ordinal: number) => number,
): number {
  let total = ownOf(ordinal);
  if (lending) {
    let previous = columns.previous[ordinal]!;
    let next = columns.next[ordinal]!;
    for (let step = 0; step < lending.window; step++) {
      if (next !== NO_NEIGHBOUR) {
        const own = ownOf(next);
        if (own > 0) total += (lending.weight * own) / 2 ** step;
        next = columns.next[next]!;
      }
      if (previous !== NO_NEIGHBOUR) {
        const own = ownOf(previous);
        if (own > 0)
          total += ((lending.weight * own) / 2 ** step) * (columns.asks[previous] === 1 ? lending.questionWeight : 1);
        previous = columns.previous[previous]!;
      }
    }
  }
  return total * boost(ordinal);
}

/** What the boosts read of the documents, by ordinal (see `DocumentColumns`). */
export interface BoostColumns {
  /** Speaker code of each document. */
  speakers: Int32Array;
  /** 1: the turn mentions a time. */
  dated: Uint8Array;
}

/**
 * A query's boost of a turn, by ordinal: `speakerWeight` if spoken by someone it names (`named`:
 * speaker codes), times `timeWeight` if the turn mentions a time and the query asks when (pass 1
 * otherwise). 1 for every turn when neither applies.
 */
export function boostOf(
  columns: BoostColumns,
  named: readonly number[],
  speakerWeight: number,
  timeWeight: number,
): (ordinal: number) => number {
  const { speakers, dated } = columns;
  const bySpeaker = speakerWeight !== 1 && named.length > 0;
  if (timeWeight === 1)
    return bySpeaker ? (ordinal) => (named.includes(speakers[ordinal]!) ? speakerWeight : 1) : () => 1;
  if (!bySpeaker) return (ordinal) => (dated[ordinal] === 1 ? timeWeight : 1);
  return (ordinal) =>
    (named.includes(speakers[ordinal]!) ? speakerWeight : 1) * (dated[ordinal] === 1 ? timeWeight : 1);
}
