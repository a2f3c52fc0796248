import type { PostingList } from "./posting-lists";

/** A document of the index as following its hits reads it: the posting lists of its distinct terms. */
export interface FollowedEntry {
  terms: readonly PostingList[];
}

/** Terms in more documents than this are not followed: names, places and other rare words are. */
export const FOLLOW_MAX_DOCUMENTS = 5;
/** Hits whose terms are followed. */
export const FOLLOWED_HITS = 3;
/** Terms of the follow-up query. */
export const FOLLOW_TERMS = 3;

/**
 * Entity following, for questions whose evidence spans several turns ("Where did Caroline move
 * from 4 years ago?": the first hit says "my home country", another turn names it): the rarest
 * terms of the first hits that the query does not hold, at most `FOLLOW_TERMS`, each weighted by
 * its IDF summed over the hits holding it. A term must occur in at least two documents (one of
 * them the hit) and at most `FOLLOW_MAX_DOCUMENTS`, which keeps the follow-up query to a few
 * short posting lists.
 */
export function followTerms(
  hits: readonly number[],
  entries: readonly (FollowedEntry | undefined)[],
  asked: ReadonlyMap<string, number>,
  idf: (frequency: number) => number,
): PostingList[] {
  const weights = new Map<PostingList, number>();
  for (const ordinal of hits.slice(0, FOLLOWED_HITS)) {
    for (const term of entries[ordinal]!.terms) {
      const frequency = term.documents;
      if (asked.has(term.term) || frequency < 2 || frequency > FOLLOW_MAX_DOCUMENTS) continue;
      weights.set(term, (weights.get(term) ?? 0) + idf(frequency));
    }
  }
  // Ties go to the term met first, so the choice does not depend on the map's history.
  return [...weights]
    .sort((left, right) => right[1] - left[1])
    .slice(0, FOLLOW_TERMS)
    .map(([term]) => term);
}

/**
 * Merges the scores of the query (`first`) and of the follow-up query (`second`, 0 where absent):
 * the first's score plus `weight` times the second's, rescaled so that the best of each counts
 * the same.
 */
export function mergeFollowed(
  first: ReadonlyMap<number, number>,
  second: ReadonlyMap<number, number>,
  weight: number,
): Map<number, number> {
  const best = (scores: ReadonlyMap<number, number>) => Math.max(0, ...scores.values());
  const scale = best(second) > 0 ? (weight * best(first)) / best(second) : 0;
  const merged = new Map<number, number>();
  for (const [ordinal, score] of first) merged.set(ordinal, score + scale * (second.get(ordinal) ?? 0));
  return merged;
}
