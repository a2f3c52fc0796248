import type { ScoredDocument } from "./semantic-index";

/** One ranked list to fuse and the weight of its vote. */
export interface RankedList {
  /** Best first. */
  hits: ScoredDocument[];
  /** Multiplies the list's reciprocal ranks; 0 gives it no vote. */
  weight: number;
}

/**
 * Weighted reciprocal-rank fusion (Cormack et al., 2009): each document scores the sum over the
 * lists holding it of `weight / (k + rank)`, rank counted from 1. Best first; ties keep the order
 * in which the documents were first met (the first list's order first).
 */
export function fuseByRank(lists: RankedList[], k: number): ScoredDocument[] {
  const fused = new Map<string, ScoredDocument>();
  for (const { hits, weight } of lists) {
    hits.forEach((hit, rank) => {
      const entry = fused.get(hit.document.id) ?? { document: hit.document, score: 0 };
      entry.score += weight / (k + rank + 1);
      fused.set(hit.document.id, entry);
    });
  }
  return [...fused.values()].sort((left, right) => right.score - left.score);
}
