/**
 * Ideas for multi-hop questions studied on the LoCoMo slice and left out of the default ranking
 * (bench/recall.bench.ts reports them beside the defaults): each re-ranks the default index's
 * top 50 (or adds a second query) before recall@k is scored.
 */
import { InMemorySemanticIndex, SemanticMemoryProvider, type ScoredDocument } from "agentcore";
import { analyzeText } from "../src/providers/text-analysis";
import { fractionalRecall, turnMessages, type LocomoConversation } from "./locomo";
import { KS, type Evaluation, type Recall } from "./recall-eval";

type Search = (text: string) => Promise<ScoredDocument[]>;
type Rerank = (question: string, search: Search, documentFrequency: (term: string) => number, count: number) => Promise<ScoredDocument[]>;

const DAY = 24 * 60 * 60 * 1000;

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
      diversify(await search(question), (hit, picked) => 0.8 ** picked.filter((other) => Math.floor(other.document.createdAt / DAY) === Math.floor(hit.document.createdAt / DAY)).length),
  },
  {
    name: "diversify across spots (each pick scales turns within a minute of it by 0.8)",
    rerank: async (question, search) =>
      diversify(await search(question), (hit, picked) => 0.8 ** picked.filter((other) => Math.abs(other.document.createdAt - hit.document.createdAt) <= 60_000).length),
  },
  {
    name: "follow the first hits: a second query of the 3 rarest new terms of the top 2, added at 0.3",
    rerank: async (question, search, documentFrequency, count) => {
      const first = await search(question);
      const asked = new Set(analyzeText(question));
      const weights = new Map<string, number>();
      for (const hit of first.slice(0, 2)) {
        for (const term of new Set(analyzeText(hit.document.content))) {
          const frequency = documentFrequency(term);
          if (asked.has(term) || frequency < 2) continue;
          weights.set(term, (weights.get(term) ?? 0) + Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5)));
        }
      }
      const expansion = [...weights].sort((left, right) => right[1] - left[1]).slice(0, 3).map(([term]) => term);
      if (expansion.length === 0) return first;
      const second = await search(expansion.join(" "));
      const scores = new Map<string, { hit: ScoredDocument; score: number }>();
      for (const hit of first) scores.set(hit.document.id, { hit, score: hit.score / first[0]!.score });
      for (const hit of second) {
        const entry = scores.get(hit.document.id) ?? { hit, score: 0 };
        entry.score += (0.3 * hit.score) / second[0]!.score;
        scores.set(hit.document.id, entry);
      }
      return [...scores.values()].sort((left, right) => right.score - left.score).map(({ hit, score }) => ({ ...hit, score }));
    },
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
    const frequencies = new Map<string, number>();
    for (const message of messages) for (const term of new Set(analyzeText(String(message.content)))) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const search: Search = (text) => index.searchText(text, { sessionId: conversation.sampleId }, 100);
    const mine = empty();
    for (const question of conversation.questions) {
      const ranked = await rerank(question.question, search, (term) => frequencies.get(term) ?? 0, messages.length);
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
