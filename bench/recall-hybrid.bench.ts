/**
 * Issue 44: lexical, vector and hybrid ranking side by side on the user's path (bench/recall-protocol.ts),
 * in-sample and leave-one-conversation-out, per category; the vector list's weight in the hybrid
 * (`vectorWeight`) chosen leave-one-out; and the guard that a useless embedder cannot pull the hybrid
 * more than one point below the lexical ranking. Embedders are the offline ones the repository has:
 * hashed letter trigrams (`MockEmbeddingModel`, a weak but real signal) and a hashing embedder whose
 * vectors carry no meaning (each text's own pseudo-random vector).
 */
import type { EmbeddingModel, SemanticMemoryProviderOptions } from "agentcore";
import { cpus, loadavg } from "node:os";
import { MockEmbeddingModel } from "agentcore/testing";
import { machineLine, table, type Benchmark } from "./harness";
import { loadLocomo } from "./locomo";
import { add, CATEGORIES, KS, percent, type Evaluation, type Recall } from "./recall-eval";
import {
  chooseLeaveOneOut,
  GENERATED,
  runGrid,
  withGenerated,
  type GridRuns,
  type ProtocolSetting,
} from "./recall-protocol";

type Scored = Pick<Evaluation, "overall" | "perCategory">;

/** The default `vectorWeight` of `SemanticMemoryProvider` (src/providers/semantic-memory-provider.ts). */
export const DEFAULT_VECTOR_WEIGHT = 0.02;
/** The weights the leave-one-out chooses from. */
export const WEIGHTS = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1];
const NAMES: Record<number, string> = { ...CATEGORIES, [GENERATED]: "generated date → event" };
const SHOWN = [1, 2, 3, 4, 5, GENERATED];

/** Vectors from a hash of the whole text: every text its own random direction, no meaning at all. */
export class HashingEmbedder implements EmbeddingModel {
  readonly provider = "bench";
  readonly modelId = "text-hash";
  constructor(readonly dimensions = 64) {}
  async doEmbed({ values }: { values: string[] }) {
    return { embeddings: values.map((value) => this.embed(value)) };
  }
  private embed(value: string): number[] {
    let state = 2166136261;
    for (let index = 0; index < value.length; index++) state = Math.imul(state ^ value.charCodeAt(index), 16777619);
    return Array.from({ length: this.dimensions }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0; // LCG
      return state / 2 ** 32 - 0.5;
    });
  }
}

const EMBEDDERS: { name: string; make: () => EmbeddingModel }[] = [
  { name: "hashed trigrams (MockEmbeddingModel, 256 dims)", make: () => new MockEmbeddingModel({ dimensions: 256 }) },
  { name: "useless (text hash → random vector, 64 dims)", make: () => new HashingEmbedder(64) },
];

const setting = (name: string, provider: SemanticMemoryProviderOptions): ProtocolSetting => ({ name, provider });

export const benchmark: Benchmark = {
  title: "Recall with an embedder (issue 44: lexical, vector and weighted hybrid, leave-one-conversation-out)",
  async run({ quick }) {
    const load = loadavg()[0]!.toFixed(1);
    const dev = loadLocomo();
    // Quick mode: LoCoMo's questions only and two weights; full mode adds the generated date questions.
    const conversations = quick ? dev : withGenerated(dev);
    const weights = quick ? [DEFAULT_VECTOR_WEIGHT, 1] : WEIGHTS;
    if (!weights.includes(DEFAULT_VECTOR_WEIGHT)) throw new Error("The weight grid must hold the default weight.");
    const lexical = setting("lexical (default)", { ranking: "lexical" });
    const lexicalRuns = await runGrid(conversations, [lexical]);
    const r10 = (
      evaluation: { overall: Evaluation["overall"]; perCategory: Evaluation["perCategory"] },
      category?: number,
    ) => percent(category === undefined ? evaluation.overall : evaluation.perCategory.get(category)!)[1]!;
    const locomo10 = (evaluation: Scored) => {
      const recalls = [1, 2, 3, 4, 5].flatMap((category) => evaluation.perCategory.get(category) ?? []);
      const questions = recalls.reduce((sum, recall) => sum + recall.questions, 0);
      return (100 * recalls.reduce((sum, recall) => sum + recall.sums[KS.indexOf(10)]!, 0)) / questions;
    };
    const inSample = (runs: Map<string, Evaluation>) => merged([...runs.values()]);
    const lexicalAll = inSample(lexicalRuns.get(lexical)!);
    const sections: string[] = [];
    const guard: string[] = [];
    let broken: string | undefined;
    const categories = SHOWN.filter((category) => lexicalAll.perCategory.has(category));
    const header = ["ranking", "R@10", "LoCoMo's questions (1–5)", ...categories.map((category) => NAMES[category]!)];
    const row = (name: string, evaluation: Scored) => [
      name,
      r10(evaluation),
      locomo10(evaluation).toFixed(1),
      ...categories.map((category) => r10(evaluation, category)),
    ];
    /** Per weight, each conversation's evaluation summed over the embedders: what the default is chosen on. */
    const joint: GridRuns = new Map();
    const jointSettings = weights.map((vectorWeight) => setting(`vectorWeight ${vectorWeight}`, { vectorWeight }));
    /** Each embedder's hybrid runs, by weight: scored below with the weight the joint choice makes per fold. */
    const hybridRuns: { name: string; byWeight: Map<number, Map<string, Evaluation>> }[] = [];
    for (const embedder of EMBEDDERS) {
      const vector = setting("vector only", { ranking: "vector", embedder: embedder.make() });
      const hybrids = weights.map((vectorWeight) =>
        setting(`hybrid, vectorWeight ${vectorWeight}`, { embedder: embedder.make(), vectorWeight }),
      );
      const runs = await runGrid(conversations, [vector, ...hybrids]);
      hybridRuns.push({
        name: embedder.name,
        byWeight: new Map(hybrids.map((hybrid) => [hybrid.provider.vectorWeight!, runs.get(hybrid)!])),
      });
      hybrids.forEach((hybrid, position) => {
        const byConversation = joint.get(jointSettings[position]!) ?? new Map<string, Evaluation>();
        joint.set(jointSettings[position]!, byConversation);
        for (const [sampleId, evaluation] of runs.get(hybrid)!) {
          const known = byConversation.get(sampleId);
          byConversation.set(sampleId, {
            ...merged(known ? [known, evaluation] : [evaluation]),
            perConversation: new Map(),
          });
        }
      });
      const validated = chooseLeaveOneOut(conversations, hybrids, runs);
      sections.push(
        `**${embedder.name}**: R@10 (%) on the user's path, ${conversations.length} conversations, ` +
          `${lexicalAll.overall.questions} questions. In-sample rows score one fixed setting on all of them; ` +
          "the leave-one-out row scores each conversation with the weight (of " +
          `${weights.join(" / ")}) best for this embedder on the other two.\n\n` +
          table(header, [
            row(lexical.name, lexicalAll),
            row(vector.name, inSample(runs.get(vector)!)),
            ...hybrids.map((hybrid) => row(hybrid.name, inSample(runs.get(hybrid)!))),
            row("hybrid, weight chosen leave-one-conversation-out", validated),
          ]) +
          "\n\n" +
          table(
            ["held-out conversation", "weight chosen on the other two", "R@10 hybrid", "R@10 lexical"],
            validated.folds.map((fold) => [
              fold.sampleId,
              fold.chosen,
              percent(fold.recall)[1]!,
              percent(lexicalRuns.get(lexical)!.get(fold.sampleId)!.overall)[1]!,
            ]),
          ),
      );
      const atDefault = inSample(runs.get(hybrids[weights.indexOf(DEFAULT_VECTOR_WEIGHT)]!)!);
      const gaps = [Number(r10(atDefault)) - Number(r10(lexicalAll)), locomo10(atDefault) - locomo10(lexicalAll)];
      const signed = (gap: number) => `${gap >= 0 ? "+" : "−"}${Math.abs(gap).toFixed(1)}`;
      guard.push(`${embedder.name}: ${signed(gaps[0]!)} (all) / ${signed(gaps[1]!)} (LoCoMo's questions)`);
      if (embedder.make() instanceof HashingEmbedder && Math.min(...gaps) < -1) {
        broken = `Guard: with a useless embedder the default hybrid (vectorWeight ${DEFAULT_VECTOR_WEIGHT}) is more than one point below lexical (${guard.at(-1)}).`;
      }
    }
    const chosen = chooseLeaveOneOut(conversations, jointSettings, joint);
    sections.push(
      "The default weight, chosen leave-one-conversation-out over both embedders together (for each held-out conversation, " +
        "the weight with the best R@10 summed over the two embedders on the other two conversations): " +
        chosen.folds.map((fold) => `${fold.sampleId} → ${fold.chosen}`).join(", ") +
        `. \`SemanticMemoryProvider\` defaults to \`vectorWeight: ${DEFAULT_VECTOR_WEIGHT}\`. Each embedder held out that way, ` +
        "per category:\n\n" +
        table(header, [
          row(lexical.name, lexicalAll),
          ...hybridRuns.map(({ name, byWeight }) =>
            row(
              `${name}, hybrid at the jointly chosen weight (held out)`,
              merged(
                chosen.folds.map(
                  (fold) =>
                    byWeight
                      .get(jointSettings.find((candidate) => candidate.name === fold.chosen)!.provider.vectorWeight!)!
                      .get(fold.sampleId)!,
                ),
              ),
            ),
          ),
        ]),
    );
    sections.push(
      `Guard (fails the bench when the useless embedder's hybrid at the default weight falls more than 1.0 below lexical), gap at vectorWeight ${DEFAULT_VECTOR_WEIGHT}: ${guard.join("; ")}.`,
    );
    sections.push(
      `Recall does not depend on the machine; for the record: ${machineLine()} The ${cpus().length} cores were shared with other work, load average ${load} at the start.`,
    );
    const report = sections.join("\n\n");
    if (broken) {
      console.log(report);
      throw new Error(broken);
    }
    return report;
  },
};

/** One evaluation summing several (each conversation's own run). */
function merged(evaluations: Evaluation[]): Pick<Evaluation, "overall" | "perCategory"> {
  const empty = (): Recall => ({ questions: 0, sums: KS.map(() => 0) });
  const overall = empty();
  const perCategory: Evaluation["perCategory"] = new Map();
  for (const evaluation of evaluations) {
    add(overall, evaluation.overall);
    for (const [category, recall] of evaluation.perCategory) {
      const target = perCategory.get(category) ?? empty();
      perCategory.set(category, target);
      add(target, recall);
    }
  }
  return { overall, perCategory };
}
