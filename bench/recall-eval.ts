/**
 * The recall protocol on LoCoMo, shared by bench/recall.bench.ts and bench/recall-loo.ts: write
 * every turn of a conversation into a fresh provider, read each question, score fractional
 * recall@k; and leave-one-conversation-out selection of index settings.
 */
import { SemanticMemoryProvider, type AgentMessage } from "agentcore";
import { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "agentcore/semantic";
import { fractionalRecall, turnMessages, type LocomoConversation } from "./locomo";

export const KS = [5, 10, 25, 50] as const;

export const CATEGORIES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

export interface Recall {
  questions: number;
  /** Summed fractional recall at each k. */
  sums: number[];
}

export interface Evaluation {
  perConversation: Map<string, Recall>;
  perCategory: Map<number, Recall>;
  overall: Recall;
}

const empty = (): Recall => ({ questions: 0, sums: KS.map(() => 0) });

/** Writes every turn of each conversation (id = dia_id), reads each question with limit 50, scores recall@k. */
export async function evaluate(
  conversations: LocomoConversation[],
  makeProvider: () => Pick<SemanticMemoryProvider, "read" | "write">,
  messagesOf: (conversation: LocomoConversation) => AgentMessage[] = turnMessages,
): Promise<Evaluation> {
  const perConversation = new Map<string, Recall>();
  const perCategory = new Map<number, Recall>();
  const overall = empty();
  for (const conversation of conversations) {
    const provider = makeProvider();
    await provider.write(messagesOf(conversation), { sessionId: conversation.sampleId });
    const mine = empty();
    for (const question of conversation.questions) {
      const records = await provider.read({
        sessionId: conversation.sampleId,
        query: question.question,
        limit: KS.at(-1)!,
      });
      const category = perCategory.get(question.category) ?? empty();
      perCategory.set(question.category, category);
      for (const target of [mine, overall, category]) target.questions++;
      KS.forEach((k, index) => {
        const recall = fractionalRecall(
          question.evidence,
          records.slice(0, k).map((record) => record.messageId),
        );
        for (const target of [mine, overall, category]) target.sums[index]! += recall;
      });
    }
    perConversation.set(conversation.sampleId, mine);
  }
  return { perConversation, perCategory, overall };
}

/** Adds one recall into another. */
export function add(target: Recall, recall: Recall): void {
  target.questions += recall.questions;
  recall.sums.forEach((sum, index) => (target.sums[index]! += sum));
}

/** Recall at each k in percent, one decimal. */
export const percent = (recall: Recall) =>
  recall.sums.map((sum) => (recall.questions ? ((100 * sum) / recall.questions).toFixed(1) : "–"));

/** A setting's index options, named for the report. */
export interface Setting {
  name: string;
  options: InMemorySemanticIndexOptions;
}

export interface LeaveOneOut {
  /** Per held-out conversation: the setting chosen on the others (best R@10 there) and its recall on it. */
  folds: { sampleId: string; chosen: string; recall: Recall }[];
  /** Held-out recall over all questions (each question scored once, by the setting chosen without its conversation). */
  overall: Recall;
  perCategory: Map<number, Recall>;
}

/**
 * Leave-one-conversation-out validation of a grid of settings: for each conversation, the setting
 * with the best R@10 on the other conversations is scored on it. Ties go to the earlier setting,
 * so list the simplest first.
 */
export async function leaveOneOut(conversations: LocomoConversation[], settings: Setting[]): Promise<LeaveOneOut> {
  const runs = new Map<string, Map<string, Evaluation>>();
  for (const setting of settings) {
    const byConversation = new Map<string, Evaluation>();
    for (const conversation of conversations) {
      byConversation.set(
        conversation.sampleId,
        await evaluate(
          [conversation],
          () => new SemanticMemoryProvider({ index: new InMemorySemanticIndex(setting.options) }),
        ),
      );
    }
    runs.set(setting.name, byConversation);
  }
  const r10 = KS.indexOf(10);
  const folds: LeaveOneOut["folds"] = [];
  const overall = empty();
  const perCategory = new Map<number, Recall>();
  for (const held of conversations) {
    let best = settings[0]!.name;
    let bestScore = -1;
    for (const setting of settings) {
      let sum = 0;
      let questions = 0;
      for (const other of conversations) {
        if (other === held) continue;
        const recall = runs.get(setting.name)!.get(other.sampleId)!.overall;
        sum += recall.sums[r10]!;
        questions += recall.questions;
      }
      const score = questions ? sum / questions : 0;
      if (score > bestScore) [best, bestScore] = [setting.name, score];
    }
    const evaluation = runs.get(best)!.get(held.sampleId)!;
    folds.push({ sampleId: held.sampleId, chosen: best, recall: evaluation.overall });
    add(overall, evaluation.overall);
    for (const [category, recall] of evaluation.perCategory) {
      const target = perCategory.get(category) ?? empty();
      perCategory.set(category, target);
      add(target, recall);
    }
  }
  return { folds, overall, perCategory };
}

/**
 * The grid validated leave-one-out: each ranking step off and at its default, the three older
 * ones also one step either side (coordination, question lending, speaker boost), the two newer
 * ones (following the first hits, the time boost) one step up alone.
 */
export const RANKING_GRID: Setting[] = [{ name: "defaults", options: {} }];
for (const coordination of [0, 0.5, 1, 2]) {
  for (const questionWeight of [1, 2, 3]) {
    for (const speakerWeight of [1, 1.5, 2]) {
      for (const followWeight of [0, 0.3]) {
        for (const timeWeight of [1, 1.5]) {
          const options = { coordination, questionWeight, speakerWeight, followWeight, timeWeight };
          if (
            coordination === 1 &&
            questionWeight === 2 &&
            speakerWeight === 1.5 &&
            followWeight === 0.3 &&
            timeWeight === 1.5
          )
            continue;
          RANKING_GRID.push({
            name: Object.entries(options)
              .map(([key, value]) => `${key} ${value}`)
              .join(", "),
            options,
          });
        }
      }
    }
  }
}
RANKING_GRID.push(
  { name: "followWeight 0.6", options: { followWeight: 0.6 } },
  { name: "timeWeight 2", options: { timeWeight: 2 } },
);
