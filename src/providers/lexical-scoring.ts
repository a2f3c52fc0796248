import { analyzeText } from "./text-analysis";

/**
 * Scoring steps of `InMemorySemanticIndex`'s lexical search that follow BM25: coordination,
 * neighbour context lending and the speaker boost. They work on score arrays indexed by
 * document ordinal.
 */

/** What lending needs to know of a document: its session neighbours and whether it asks something. */
export interface LendingLinks {
  previous: number;
  next: number;
  /** The turn holds a question, so the turns after it are likely its answer. */
  asks: boolean;
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
 * Coordination: scales each hit's BM25 score by the share of the query's IDF mass it matches,
 * raised to `power`, so a turn matching the rare half of a question beats one that repeats a
 * common word.
 */
export function coordinate(hits: readonly number[], own: Float64Array, matched: Float64Array, queryMass: number, power: number): void {
  if (power === 0 || queryMass <= 0) return;
  if (power === 1) for (const ordinal of hits) own[ordinal] = (own[ordinal]! * matched[ordinal]!) / queryMass;
  else for (const ordinal of hits) own[ordinal] = own[ordinal]! * Math.pow(matched[ordinal]! / queryMass, power);
}

/**
 * Adds each hit's own score to `total` and lends a share of it to the turns around it in its
 * session (those `passes` accepts). Returns every ordinal with a score: the hits, then the
 * turns that only received lent score.
 */
export function lendToNeighbours(
  hits: readonly number[],
  own: Float64Array,
  total: Float64Array,
  links: (ordinal: number) => LendingLinks,
  passes: (ordinal: number) => boolean,
  options: LendingOptions,
): number[] {
  for (const ordinal of hits) total[ordinal] = own[ordinal]!;
  const candidates = [...hits];
  const receive = (ordinal: number, share: number) => {
    if (!passes(ordinal)) return;
    if (total[ordinal] === 0) candidates.push(ordinal);
    total[ordinal] = total[ordinal]! + share;
  };
  for (const ordinal of hits) {
    const hit = links(ordinal);
    let share = options.weight * own[ordinal]!;
    const forward = hit.asks ? options.questionWeight : 1;
    let previous = hit.previous;
    let next = hit.next;
    for (let step = 0; step < options.window; step++, share /= 2) {
      if (previous !== NO_NEIGHBOUR) {
        receive(previous, share);
        previous = links(previous).previous;
      }
      if (next !== NO_NEIGHBOUR) {
        receive(next, share * forward);
        next = links(next).next;
      }
    }
  }
  return candidates;
}

/**
 * Multiplies by `weight` the score of each candidate spoken by someone the query names ("What
 * did Caroline research?" favours Caroline's turns and the turns they lent to).
 */
export function boostSpeakers(
  candidates: readonly number[],
  scores: Float64Array,
  speaker: (ordinal: number) => string | undefined,
  named: readonly string[],
  weight: number,
): void {
  for (const ordinal of candidates) {
    const term = speaker(ordinal);
    if (term !== undefined && named.includes(term)) scores[ordinal] = scores[ordinal]! * weight;
  }
}
