/**
 * Ideas studied on the LoCoMo slice and left out of the default ranking (bench/recall.bench.ts
 * reports them beside the defaults): each re-ranks the default index's top 100 (the two
 * diversifications its top 50) before recall@k is scored.
 */
import { InMemorySemanticIndex, SemanticMemoryProvider, type ScoredDocument } from "agentcore";
import { fractionalRecall, turnMessages, type LocomoConversation } from "./locomo";
import { KS, type Evaluation, type Recall } from "./recall-eval";

type Search = (text: string) => Promise<ScoredDocument[]>;
/** Re-ranks the hits of a question; `openers` holds the ids of the turns that open a session (an hour or more after the turn before). */
type Rerank = (question: string, search: Search, openers: ReadonlySet<string>) => Promise<ScoredDocument[]>;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const dayOf = (hit: ScoredDocument) => Math.floor(hit.document.createdAt / DAY);
const rescored = (hits: ScoredDocument[], score: (hit: ScoredDocument) => number) =>
  hits.map((hit) => ({ ...hit, score: score(hit) })).sort((left, right) => right.score - left.score);

/** Greedy selection where each pick scales the others by `penalty(candidate, picked)`. */
function diversify(hits: ScoredDocument[], penalty: (candidate: ScoredDocument, picked: ScoredDocument[]) => number): ScoredDocument[] {
  const pool = hits.slice(0, 50);
  const picked: ScoredDocument[] = [];
  while (pool.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    pool.forEach((hit, position) => {
      const score = hit.score * penalty(hit, picked);
      if (score > bestScore) [best, bestScore] = [position, score];
    });
    picked.push(pool.splice(best, 1)[0]!);
  }
  return picked;
}

export const STUDY: { name: string; rerank: Rerank }[] = [
  {
    name: "diversify across days (each pick from a day scales that day's others by 0.8)",
    rerank: async (question, search) =>
      diversify(await search(question), (hit, picked) => 0.8 ** picked.filter((other) => dayOf(other) === dayOf(hit)).length),
  },
  {
    name: "diversify across spots (each pick scales turns within a minute of it by 0.8)",
    rerank: async (question, search) =>
      diversify(await search(question), (hit, picked) => 0.8 ** picked.filter((other) => Math.abs(other.document.createdAt - hit.document.createdAt) <= 60_000).length),
  },
  {
    name: "day prior: each turn gains 0.2 × the mean of its day's two best scores",
    rerank: async (question, search) => {
      const hits = await search(question);
      const days = new Map<number, number[]>();
      for (const hit of hits) days.set(dayOf(hit), [...(days.get(dayOf(hit)) ?? []), hit.score]);
      const prior = (hit: ScoredDocument) => {
        const [best = 0, second = 0] = days.get(dayOf(hit))!;
        return (0.2 * (best + second)) / 2;
      };
      return rescored(hits, (hit) => hit.score + prior(hit));
    },
  },
  {
    name: "proximity: a turn's score blended with the best of the turns a minute either side (0.8 / 0.2)",
    rerank: async (question, search) => {
      const hits = await search(question);
      const at = new Map(hits.map((hit) => [hit.document.createdAt, hit.score]));
      const near = (hit: ScoredDocument) => Math.max(at.get(hit.document.createdAt - 60_000) ?? 0, at.get(hit.document.createdAt + 60_000) ?? 0);
      return rescored(hits, (hit) => 0.8 * hit.score + 0.2 * near(hit));
    },
  },
  {
    name: "session openers (a session's first turn, where news is told) × 1.35",
    rerank: async (question, search, openers) => rescored(await search(question), (hit) => (openers.has(hit.document.id) ? 1.35 : 1) * hit.score),
  },
  {
    name: "turns that end with a question × 0.75 (they ask rather than tell)",
    rerank: async (question, search) => rescored(await search(question), (hit) => (hit.document.content.trim().endsWith("?") ? 0.75 : 1) * hit.score),
  },
];

const empty = (): Recall => ({ questions: 0, sums: KS.map(() => 0) });

/** The recall protocol of `evaluate` with a re-ranking step between the index and the score. */
export async function evaluateReranked(conversations: LocomoConversation[], rerank: Rerank): Promise<Evaluation> {
  const perConversation = new Map<string, Recall>();
  const perCategory = new Map<number, Recall>();
  const overall = empty();
  for (const conversation of conversations) {
    const index = new InMemorySemanticIndex();
    const messages = turnMessages(conversation);
    await new SemanticMemoryProvider({ index }).write(messages, { sessionId: conversation.sampleId });
    const search: Search = (text) => index.searchText(text, { sessionId: conversation.sampleId }, 100);
    const openers = new Set<string>();
    let previous = -Infinity;
    for (const document of await index.list({ sessionId: conversation.sampleId })) {
      if (document.createdAt - previous >= HOUR) openers.add(document.id);
      previous = document.createdAt;
    }
    const mine = empty();
    for (const question of conversation.questions) {
      const ranked = await rerank(question.question, search, openers);
      const category = perCategory.get(question.category) ?? empty();
      perCategory.set(question.category, category);
      for (const target of [mine, overall, category]) target.questions++;
      KS.forEach((k, position) => {
        const recall = fractionalRecall(question.evidence, ranked.slice(0, k).map((hit) => hit.document.messageId));
        for (const target of [mine, overall, category]) target.sums[position]! += recall;
      });
    }
    perConversation.set(conversation.sampleId, mine);
  }
  return { perConversation, perCategory, overall };
}
