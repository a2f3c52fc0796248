/**
 * Issue 33, the document and feedback side: each idea on the user's path, per category, in-sample.
 *   npx tsx bench/recall-docs-study.ts '<json of index options>' ['<json of provider options>'] ...
 */
import { loadLocomo } from "./locomo";
import { withGenerated, evaluateUserPath, GENERATED } from "./recall-protocol";
import { percent, type Evaluation } from "./recall-eval";

const conversations = withGenerated(loadLocomo());
const dev10 = (evaluation: Evaluation) => {
  const sums = [1, 2, 3, 4, 5].map((category) => evaluation.perCategory.get(category)!);
  const questions = sums.reduce((sum, recall) => sum + recall.questions, 0);
  return ((100 * sums.reduce((sum, recall) => sum + recall.sums[1]!, 0)) / questions).toFixed(1);
};
export const row = (evaluation: Evaluation) =>
  `${dev10(evaluation)} | ${[1, 2, 3, 4, 5, GENERATED].map((category) => percent(evaluation.perCategory.get(category)!)[1]).join(" / ")}`;
for (const spec of process.argv.slice(2)) {
  const index = JSON.parse(spec);
  const evaluation = await evaluateUserPath(conversations, { name: spec, provider: {}, index });
  console.log(`${spec.padEnd(70)} ${row(evaluation)}`);
}

/** With --loo: leave-one-conversation-out over the grid of the given settings (defaults first). */
if (process.env.LOO) {
  const { protocolLeaveOneOut } = await import("./recall-protocol");
  const grid = [
    { name: "defaults", provider: {} },
    ...process.env.LOO.split(";").map((spec) => ({ name: spec, provider: {}, index: JSON.parse(spec) })),
  ];
  const result = await protocolLeaveOneOut(conversations, grid);
  console.log(`LOO ${row(result as unknown as Evaluation)}`);
  for (const fold of result.folds) console.log(`  ${fold.sampleId}: ${fold.chosen} ${percent(fold.recall)[1]}`);
}
