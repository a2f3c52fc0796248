import type { ScoredDocument, SemanticDocument } from "./semantic-index";
import type { TimeSpan } from "./temporal-expressions";

/**
 * How well a document's time matches a period a query names, from 0 to 1: 1 when a time it
 * mentions ("yesterday", "last Friday") falls in the period and is no longer than it (less the
 * longer the mention: "last year" for a day-long period counts little); `ownShare` when it was
 * written in the period; the better of the two.
 */
export function periodMatch(document: SemanticDocument, period: TimeSpan, ownShare: number): number {
  let match = document.createdAt >= period.start && document.createdAt < period.end ? ownShare : 0;
  const mentions = document.mentions;
  if (mentions) {
    const length = period.end - period.start;
    for (let index = 0; index + 1 < mentions.length; index += 2) {
      const [start, end] = [mentions[index]!, mentions[index + 1]!];
      if (start < period.end && end > period.start) match = Math.max(match, Math.min(1, length / (end - start)));
    }
  }
  return match;
}

/**
 * Re-ranks for a query naming a period. Each document's score is its share of the best score
 * among `hits` (0 for a document that is not a hit), plus `weight` × its `periodMatch`; `timed`
 * (the documents of the period, in any order) join the hits, so a turn that shares no word with
 * the question ("yesterday I went bowling" for "what did he do on March 16, 2022?") is found by
 * its time. Ties keep the hits' order, then `timed`'s.
 */
export function rankByPeriod(
  hits: readonly ScoredDocument[],
  timed: readonly SemanticDocument[],
  period: TimeSpan,
  weight: number,
  ownShare: number,
  limit: number,
): ScoredDocument[] {
  const best = hits.reduce((most, hit) => Math.max(most, hit.score), 0);
  const scored = new Map<string, { document: SemanticDocument; score: number; order: number }>();
  hits.forEach((hit, order) => {
    scored.set(hit.document.id, {
      document: hit.document,
      score: (best > 0 ? hit.score / best : 0) + weight * periodMatch(hit.document, period, ownShare),
      order,
    });
  });
  for (const document of timed) {
    if (scored.has(document.id)) continue;
    const match = periodMatch(document, period, ownShare);
    if (match > 0) scored.set(document.id, { document, score: weight * match, order: scored.size });
  }
  return [...scored.values()]
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .slice(0, limit)
    .map(({ document, score }) => ({ document, score }));
}
