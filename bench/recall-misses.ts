/**
 * Issue 33, error analysis on the user's path (defaults): every LoCoMo question with R@10 < 1,
 * its category, the evidence turns with their rank, and the first three turns returned; then
 * each evidence turn missed (not in the first 10) classified by what it shares with the question:
 *   caption    — only its photo caption (not on the user's path) shares a content word: unreachable
 *   answer     — it shares none, the turn before it does (it answers a question the query echoes)
 *   no overlap — neither it nor the turn before shares a content word (paraphrase, inference)
 *   speaker    — it shares only the speaker's name
 *   outranked  — it shares content words and still ranks below 10
 *   npx tsx bench/recall-misses.ts [--quiet]
 */
import { SemanticMemoryProvider } from "agentcore";
import { analyzeText } from "../src/providers/text-analysis";
import { loadLocomo, userPathMessages, fractionalRecall } from "./locomo";
import { CATEGORIES } from "./recall-eval";

const quiet = process.argv.includes("--quiet");
const log = (line: string) => quiet || console.log(line);
const short = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);
const counts = new Map<string, number>();
const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
for (const conversation of loadLocomo()) {
  const provider = new SemanticMemoryProvider();
  const messages = userPathMessages(conversation);
  const byId = new Map(messages.map((message) => [message.id!, String(message.content)]));
  const turns = new Map(conversation.turns.map((turn) => [turn.id, turn]));
  const speakers = new Set(conversation.turns.flatMap((turn) => analyzeText(turn.speaker)));
  await provider.write(messages, { sessionId: conversation.sampleId });
  for (const question of conversation.questions) {
    const records = await provider.read({ sessionId: conversation.sampleId, query: question.question, limit: 50 });
    const ids = records.map((record) => record.messageId!);
    const recall = fractionalRecall(question.evidence, ids.slice(0, 10));
    if (recall >= 1) continue;
    const category = CATEGORIES[question.category]!;
    count(`question ${category}${question.evidence.length > 1 ? " multi-evidence" : ""}`);
    log(`## ${conversation.sampleId} [${category}] R@10 ${recall.toFixed(2)}: ${question.question}`);
    const asked = new Set(analyzeText(question.question));
    const content = new Set([...asked].filter((term) => !speakers.has(term)));
    const shared = (text: string | undefined, terms: Set<string>) =>
      text === undefined ? 0 : new Set(analyzeText(text).filter((term) => terms.has(term))).size;
    for (const id of question.evidence) {
      const rank = ids.indexOf(id);
      const [session, position] = id.slice(1).split(":").map(Number);
      const before = byId.get(`D${session}:${position! - 1}`);
      if (rank < 0 || rank >= 10) {
        const turn = turns.get(id)!;
        const kind =
          shared(turn.text, content) > 0
            ? "outranked"
            : shared(turn.caption, content) > 0
              ? "caption"
              : shared(before, content) > 0
                ? "answer"
                : shared(byId.get(id), asked) > 0
                  ? "speaker"
                  : "no overlap";
        count(`evidence ${kind}`);
        count(`evidence ${kind} ${category}`);
        log(`  E ${id} rank ${rank < 0 ? ">50" : rank + 1} [${kind}]: ${short(byId.get(id) ?? "?")}`);
        if (before) log(`    (before: ${short(before, 120)})`);
      } else log(`  E ${id} rank ${rank + 1}`);
    }
    for (const id of ids.slice(0, 3)) log(`  T ${id}: ${short(byId.get(id) ?? "?", 120)}`);
  }
}
console.log(
  [...counts]
    .sort()
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n"),
);
