/**
 * Loads LoCoMo (bench/data/locomo-dev.json, see its README) for the recall benchmark and the
 * recall-quality test. In the repository, not in the package: the data is CC BY-NC 4.0.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentMessage } from "agentcore";

export interface LocomoTurn {
  /** The turn's `dia_id`, e.g. "D3:12". */
  id: string;
  speaker: string;
  text: string;
  /** Caption of the photo the speaker shared in this turn, if any. */
  caption?: string;
  /** When it was said (ms since the epoch, UTC): its session's date-time plus a minute a turn. */
  timestamp: number;
  /** Its session's date-time (ms since the epoch, UTC). */
  sessionTime: number;
}

export interface LocomoQuestion {
  question: string;
  /** Normalised evidence turn ids, all present in the conversation; never empty. */
  evidence: string[];
  category: number;
}

export interface LocomoConversation {
  sampleId: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

export const LOCOMO_PATH =
  process.env.LOCOMO_PATH ?? join(dirname(fileURLToPath(import.meta.url)), "data", "locomo-dev.json");

/** Published anchors on all ten conversations (LoCoMo paper, Table 3; BM25 over turns). */
export const LOCOMO_ANCHORS = {
  "DRAGON (dense)": { 5: 56.7, 10: 66.2, 25: 76.7, 50: 82.7 },
  BM25: { 5: 51.6, 10: 58.5, 25: 66.8, 50: 71.1 },
} as const;

/** "D8:6; D9:17" → ["D8:6", "D9:17"], "D:11:26" → ["D11:26"], "D30:05" → ["D30:5"]. */
export function normaliseEvidence(raw: readonly string[]): string[] {
  const ids: string[] = [];
  for (const item of raw) {
    for (const match of String(item).matchAll(/D\s*:?\s*(\d+)\s*:\s*(\d+)/g)) {
      const id = `D${Number(match[1])}:${Number(match[2])}`;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** The text a turn is remembered as: who said it, what they said, and the photo they shared. */
export function turnContent(turn: LocomoTurn): string {
  return `${turn.speaker}: ${turn.text}${turn.caption ? ` [shares ${turn.caption}]` : ""}`;
}

/** A conversation's turns as the messages an agent would have stored: id = dia_id, timestamp = when it was said. */
export function turnMessages(conversation: LocomoConversation): AgentMessage[] {
  return conversation.turns.map((turn, index) => ({
    id: turn.id,
    role: index % 2 === 0 ? "user" : "assistant",
    content: turnContent(turn),
    timestamp: turn.timestamp,
  }));
}

/**
 * The user's path (issue 33's headline protocol): every turn as a user message whose id is its
 * `dia_id`, whose content is `<speaker>: <text>` and whose timestamp is its session's date-time.
 */
export function userPathMessages(conversation: LocomoConversation): AgentMessage[] {
  return conversation.turns.map((turn) => ({
    id: turn.id,
    role: "user",
    content: `${turn.speaker}: ${turn.text}`,
    timestamp: turn.sessionTime,
  }));
}

export function loadLocomo(path = LOCOMO_PATH): LocomoConversation[] {
  const samples = JSON.parse(readFileSync(path, "utf8")) as {
    sample_id: string;
    conversation: Record<string, unknown>;
    qa: { question: string; evidence?: string[]; category: number }[];
  }[];
  return samples.map((sample) => {
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((match): match is RegExpExecArray => match !== null && Array.isArray(sample.conversation[match[0]]))
      .sort((left, right) => Number(left[1]) - Number(right[1]));
    let previousStart = 0;
    const turns: LocomoTurn[] = sessions.flatMap((match) => {
      // A session without a readable date-time follows the one before it by a day.
      const start = sessionTime(sample.conversation[`${match[0]}_date_time`]) ?? previousStart + DAY;
      previousStart = start;
      return (
        sample.conversation[match[0]] as { speaker: string; dia_id: string; text: string; blip_caption?: string }[]
      ).map((turn, position) => ({
        id: normaliseEvidence([turn.dia_id])[0] ?? turn.dia_id,
        speaker: turn.speaker,
        text: turn.text,
        ...(turn.blip_caption ? { caption: turn.blip_caption } : {}),
        timestamp: start + position * MINUTE,
        sessionTime: start,
      }));
    });
    const known = new Set(turns.map((turn) => turn.id));
    const questions = sample.qa
      .map((item) => ({
        question: item.question,
        category: item.category,
        evidence: normaliseEvidence(item.evidence ?? []).filter((id) => known.has(id)),
      }))
      .filter((item) => item.evidence.length > 0);
    return { sampleId: sample.sample_id, turns, questions };
  });
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** "1:56 pm on 8 May, 2023" → its time in ms (read as UTC); undefined when unreadable. */
export function sessionTime(text: unknown): number | undefined {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i.exec(String(text ?? ""));
  const month = match ? MONTHS.indexOf(match[5]!.toLowerCase()) : -1;
  if (!match || month === -1) return undefined;
  const hour = (Number(match[1]) % 12) + (match[3]!.toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
}

/** Fractional recall: the share of `evidence` among `retrieved`. */
export function fractionalRecall(evidence: readonly string[], retrieved: readonly (string | undefined)[]): number {
  const found = new Set(retrieved);
  return evidence.filter((id) => found.has(id)).length / evidence.length;
}
