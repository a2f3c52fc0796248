/**
 * Generates date → event questions ("What did Caroline do on 16 March 2022?") from the dev
 * conversations' own session dates and turns, the direction LoCoMo's dev slice barely holds
 * (bench/data/README.md says how they are made). Deterministic: the same data gives the same file.
 *
 *   npx tsx bench/generate-date-questions.ts      writes bench/data/locomo-dev-date-questions.json
 *
 * Its date arithmetic is its own (a handful of phrases, UTC), not the library's parser, so the
 * questions do not simply mirror what `temporal-expressions.ts` resolves.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadLocomo, type LocomoQuestion } from "./locomo";

export interface GeneratedQuestion extends LocomoQuestion {
  sampleId: string;
  /** The phrase of the evidence turn the date came from. */
  from: string;
}

export const DATE_QUESTIONS_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  "data",
  "locomo-dev-date-questions.json",
);

const DAY = 86_400_000;
const MONTHS = "January February March April May June July August September October November December".split(" ");
const WEEKDAYS = "sunday monday tuesday wednesday thursday friday saturday".split(" ");
const TEMPLATES_DAY = [
  (who: string, when: string) => `What did ${who} do on ${when}?`,
  (who: string, when: string) => `What was ${who} up to on ${when}?`,
  (who: string, when: string) => `What happened to ${who} on ${when}?`,
];
const TEMPLATES_PERIOD = [
  (who: string, when: string) => `What did ${who} do in ${when}?`,
  (who: string, when: string) => `What was ${who} busy with in ${when}?`,
];

const longDate = (time: number) => {
  const date = new Date(time);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
};
const shortDate = (time: number) => {
  const date = new Date(time);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
};

/** The phrase a turn dates itself with and the question's "when", or undefined. */
function dated(
  text: string,
  session: number,
  variant: number,
): { from: string; when: string; day: boolean } | undefined {
  const lower = text.toLowerCase();
  const date = new Date(session);
  const day = (time: number) => ({ when: variant % 2 ? shortDate(time) : longDate(time), day: true });
  let match = /\b(yesterday|last night)\b/.exec(lower);
  if (match) return { from: match[1]!, ...day(session - DAY) };
  match = /\b(two|three|2|3) days ago\b/.exec(lower);
  if (match) return { from: match[0], ...day(session - (/two|2/.test(match[1]!) ? 2 : 3) * DAY) };
  match = /\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(lower);
  if (match) {
    const back = ((date.getUTCDay() - WEEKDAYS.indexOf(match[1]!) + 6) % 7) + 1;
    return { from: match[0], ...day(session - back * DAY) };
  }
  match = /\blast month\b/.exec(lower);
  if (match) {
    const month = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1));
    return { from: match[0], when: `${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()}`, day: false };
  }
  match = /\blast year\b/.exec(lower);
  if (match) return { from: match[0], when: String(date.getUTCFullYear() - 1), day: false };
  return undefined;
}

/** Every generated question of the dev conversations, in conversation and turn order. */
export function generateDateQuestions(): GeneratedQuestion[] {
  const questions: GeneratedQuestion[] = [];
  for (const conversation of loadLocomo()) {
    conversation.turns.forEach((turn, position) => {
      const found = dated(turn.text, turn.sessionTime, position);
      if (!found) return;
      const templates = found.day ? TEMPLATES_DAY : TEMPLATES_PERIOD;
      questions.push({
        sampleId: conversation.sampleId,
        question: templates[position % templates.length]!(turn.speaker, found.when),
        evidence: [turn.id],
        category: 2,
        from: found.from,
      });
    });
  }
  return questions;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const questions = generateDateQuestions();
  writeFileSync(DATE_QUESTIONS_PATH, `${JSON.stringify(questions, null, 1)}\n`);
  console.log(`${questions.length} questions → ${DATE_QUESTIONS_PATH}`);
}
