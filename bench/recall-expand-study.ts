/**
 * Issue 33, document expansion on the user's path (the index's `expansionWeight`): per category
 * in-sample for each weight, leave-one-conversation-out over the defaults and the weights (defaults
 * first), and the other protocol (bench/recall.bench.ts: turns with their captions) in-sample.
 *   npx tsx bench/recall-expand-study.ts [0.0625,0.125,0.25]
 */
import { SemanticMemoryProvider } from "agentcore";
import { InMemorySemanticIndex } from "agentcore/semantic";
import { loadLocomo } from "./locomo";
import { CATEGORIES, evaluate, percent, type Evaluation } from "./recall-eval";
import { chooseLeaveOneOut, GENERATED, runGrid, withGenerated, type ProtocolSetting } from "./recall-protocol";

const weights = (process.argv[2] ?? "0.0625,0.125,0.25").split(",").map(Number);
const dev = loadLocomo();
const conversations = withGenerated(dev);
const grid: ProtocolSetting[] = [
  { name: "defaults", provider: {} },
  ...weights.map((expansionWeight) => ({
    name: `expansion ${expansionWeight}`,
    provider: {},
    index: { expansionWeight },
  })),
];
const cell = (evaluation: Pick<Evaluation, "perCategory">) => {
  const sums = [1, 2, 3, 4, 5].map((category) => evaluation.perCategory.get(category)!);
  const questions = sums.reduce((sum, recall) => sum + recall.questions, 0);
  const locomo = ((100 * sums.reduce((sum, recall) => sum + recall.sums[1]!, 0)) / questions).toFixed(1);
  const parts = [1, 2, 3, 4, 5, GENERATED].map((category) => percent(evaluation.perCategory.get(category)!)[1]);
  return `${locomo}; ${parts.join(" / ")}`;
};
const runs = await runGrid(conversations, grid);
for (const setting of grid) {
  // In-sample: the three conversations' evaluations summed.
  const perCategory = new Map<number, { questions: number; sums: number[] }>();
  for (const evaluation of runs.get(setting)!.values())
    for (const [category, recall] of evaluation.perCategory) {
      const target = perCategory.get(category) ?? { questions: 0, sums: recall.sums.map(() => 0) };
      target.questions += recall.questions;
      recall.sums.forEach((sum, index) => (target.sums[index]! += sum));
      perCategory.set(category, target);
    }
  console.log(`in-sample ${setting.name}: ${cell({ perCategory })}`);
}
const loo = chooseLeaveOneOut(conversations, grid, runs);
console.log(
  `LOO over the grid: ${cell(loo)}; folds ${loo.folds.map((fold) => `${fold.sampleId} → ${fold.chosen}`).join(", ")}`,
);
for (const setting of grid.slice(1)) {
  const pair = chooseLeaveOneOut(conversations, [grid[0]!, setting], runs);
  console.log(
    `LOO defaults vs ${setting.name}: ${cell(pair)}; folds ${pair.folds.map((fold) => fold.chosen).join(", ")}`,
  );
}
// The other protocol (bench/recall.bench.ts): turns with their photo captions, R@10 in-sample.
for (const setting of grid) {
  const other = await evaluate(
    dev,
    () => new SemanticMemoryProvider({ index: new InMemorySemanticIndex(setting.index ?? {}) }),
  );
  const parts = [1, 2, 3, 4, 5].map(
    (category) => `${CATEGORIES[category]} ${percent(other.perCategory.get(category)!)[1]}`,
  );
  console.log(`other protocol ${setting.name}: R@10 ${percent(other.overall)[1]}; ${parts.join(", ")}`);
}
// Per conversation (what each fold chooses from): all questions with the generated, and LoCoMo's alone.
for (const setting of grid) {
  const rows = [...runs.get(setting)!].map(([sampleId, evaluation]) => {
    const locomo = [1, 2, 3, 4, 5].flatMap((category) => evaluation.perCategory.get(category) ?? []);
    const questions = locomo.reduce((sum, recall) => sum + recall.questions, 0);
    const r10 = ((100 * locomo.reduce((sum, recall) => sum + recall.sums[1]!, 0)) / questions).toFixed(1);
    return `${sampleId} ${percent(evaluation.overall)[1]} (LoCoMo's ${r10})`;
  });
  console.log(`per conversation ${setting.name}: ${rows.join(", ")}`);
}
