/**
 * Issue 33, error analysis on the user's path (scratch study, not a benchmark): for each LoCoMo
 * question whose evidence is not all in the first 10 with defaults, prints the question, its
 * category, each evidence turn's rank and text, and the top 3 turns returned; then counts the misses
 * by a rough automatic class (see `classify`). `npx tsx bench/recall-misses.ts [> file]`.
 */
import { SemanticMemoryProvider } from "agentcore";
import { analyzeText } from "../src/providers/text-analysis";
import { CATEGORIES } from "./recall-eval";
import { fractionalRecall, loadLocomo, userPathMessages } from "./locomo";

/** A miss's class, from the missed evidence turns against the question (first match wins). */
export function classify(
  question: string,
  missed: { text: string; caption?: string; before?: string }[],
  evidenceCount: number,
): string {
  const asked = new Set(analyzeText(question));
  const shared = (text: string) => analyzeText(text).filter((term) => asked.has(term));
  const classes = missed.map(({ text, caption, before }) => {
    const own = shared(text);
    if (own.length === 0 && caption && shared(caption).length > 0) return "caption-only evidence";
    if (own.length === 0 && before && shared(before).length > 0) return "answer turn after the matching turn";
    const words: string[] = question.toLowerCase().match(/[a-z]+/g) ?? [];
    const raw = new Set((text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => words.includes(word)));
    if (own.length === 0 && raw.size > 0 && [...raw].every((word) => analyzeText(word).length === 0))
      return "stop-word-only overlap";
    if (own.length === 0) return "no shared term (paraphrase)";
    const names = own.filter((term) =>
      /^\p{Lu}/u.test(question.split(/\s+/).find((word) => analyzeText(word)[0] === term) ?? ""),
    );
    if (own.length === names.length) return "shares only a name";
    return "shares content terms, outranked";
  });
  const counts = new Map<string, number>();
  for (const name of classes) counts.set(name, (counts.get(name) ?? 0) + 1);
  const main = [...counts].sort((left, right) => right[1] - left[1])[0]![0];
  return evidenceCount > 1 ? `multi-evidence: ${main}` : main;
}

const conversations = loadLocomo();
const tally = new Map<string, number>();
const byCategory = new Map<string, number>();
let lost = 0;
for (const conversation of conversations) {
  const provider = new SemanticMemoryProvider();
  await provider.write(userPathMessages(conversation), { sessionId: conversation.sampleId });
  const turns = new Map(conversation.turns.map((turn, index) => [turn.id, { turn, index }]));
  for (const question of conversation.questions) {
    const records = await provider.read({ sessionId: conversation.sampleId, query: question.question, limit: 50 });
    const ids = records.map((record) => record.messageId);
    const recall = fractionalRecall(question.evidence, ids.slice(0, 10) as string[]);
    if (recall >= 1) continue;
    lost += 1 - recall;
    const missed = question.evidence
      .filter((id) => !ids.slice(0, 10).includes(id))
      .map((id) => {
        const { turn, index } = turns.get(id)!;
        return { text: turn.text, caption: turn.caption, before: conversation.turns[index - 1]?.text };
      });
    const kind = classify(question.question, missed, question.evidence.length);
    tally.set(kind, (tally.get(kind) ?? 0) + 1);
    const key = `${CATEGORIES[question.category]}: ${kind}`;
    byCategory.set(key, (byCategory.get(key) ?? 0) + 1);
    console.log(
      `\n[${conversation.sampleId} ${CATEGORIES[question.category]} R@10 ${recall.toFixed(2)}] ${question.question}  => ${kind}`,
    );
    for (const id of question.evidence) {
      const { turn } = turns.get(id)!;
      const rank = ids.indexOf(id);
      console.log(
        `  evidence ${id} rank ${rank < 0 ? ">50" : rank + 1}: ${turn.speaker}: ${turn.text}${turn.caption ? ` [caption: ${turn.caption}]` : ""}`,
      );
    }
    for (const record of records.slice(0, 3)) console.log(`  top: ${record.messageId} ${record.content.slice(0, 140)}`);
  }
}
console.log(`\nmissed recall mass (questions × (1 − R@10)): ${lost.toFixed(1)}`);
console.log(
  [...tally]
    .sort((left, right) => right[1] - left[1])
    .map(([kind, count]) => `${count}\t${kind}`)
    .join("\n"),
);
console.log(
  "\n" +
    [...byCategory]
      .sort()
      .map(([kind, count]) => `${count}\t${kind}`)
      .join("\n"),
);
