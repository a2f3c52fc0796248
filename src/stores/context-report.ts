import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { validateSessionId } from "../messages/session-id";

/**
 * Reports kept per session, at most: saving one more drops the oldest. A report references what
 * the store holds by id (message ids, fact keys, the summary's id: never message bodies, fact
 * values, summary text or image bytes), so deleting a fact or messages leaves no copy in reports,
 * and each report is at most `MAX_CONTEXT_REPORT_BYTES`. @default 100
 */
export const MAX_CONTEXT_REPORTS = 100;

/**
 * Size of one report, at most, in bytes of its JSON (UTF-8). A larger one keeps the newest window
 * ids and left-out entries that fit, with the full counts in `windowCount` / `leftOutCount` (and
 * `factCount` / `recalledCount`) and `truncated: true`. @default 65536 (64 KiB)
 */
export const MAX_CONTEXT_REPORT_BYTES = 64 * 1024;

/** Characters of a recalled memory kept in a report (a provider's memory is not in the store): a preview. @default 200 */
export const RECALLED_PREVIEW_CHARS = 200;

/** Characters of a memory provider's context (its summary and other context) kept in a report: a preview. @default 500 */
export const PROVIDED_CONTEXT_PREVIEW_CHARS = 500;

/** Why a stored message did not reach the model as it is stored. */
export type ContextLeftOutReason =
  /** The strategy's message or turn limit (`maxMessages`, `maxTurns`). */
  | "window-size"
  /** The strategy's token budget (`maxTokens`). */
  | "token-budget"
  /** Covered by the conversation summary instead. */
  | "summary"
  /** In the window, but a long tool result was sent cut (`maxToolResultLength`). */
  | "tool-result-cut"
  /** In the strategy's window, left out by the agent's `prepareStep` (its `messages`). */
  | "prepare-step";

/** A stored message that was left out of a model call's window (or sent cut), and why. */
export interface ContextLeftOut {
  messageId: string;
  role: "user" | "assistant" | "tool" | "system";
  reason: ContextLeftOutReason;
  /** For a cut tool result: characters sent and stored. */
  sentChars?: number;
  storedChars?: number;
}

/** Estimated tokens of each part of a model call's input; `total` is their sum. */
export interface ContextTokens {
  /** The agent's own system prompt. */
  system: number;
  /** The facts block. */
  facts: number;
  /** The conversation summary (and context a memory gave). */
  summary: number;
  /** The recalled memories block (sent in the turn's user message, or in the system prompt when that message is not in the window). */
  recalled: number;
  /** The window's messages. */
  window: number;
  total: number;
  /** The strategy's token budget for the window, when it has one. */
  budget?: number;
}

/** A memory recalled for a model call, with the provider's score. */
export interface ContextRecalledMemory {
  id: string;
  /** The start of the memory (at most `RECALLED_PREVIEW_CHARS` characters, `…` when cut). */
  content: string;
  /** The memory's length in characters, when `content` is a cut preview. */
  contentChars?: number;
  score?: number;
  messageId?: string;
}

/**
 * What one model call received and why (recorded with the agent's `recordContext: true`): the
 * stored messages in its window and those left out, with the reason, the summary, facts and
 * recalled memories, and the token count of each part. What the store holds is referenced, not
 * copied: messages by id, facts by key, the summary by its record's id (the inspector shows the
 * live text, so what was deleted is not shown). At most `MAX_CONTEXT_REPORT_BYTES` of JSON.
 */
export interface ContextReport {
  /** Unique id of the report (idempotency key of `saveContextReport`). */
  id: string;
  sessionId: string;
  runId: string;
  /** The step of the run (1 for the first model call). */
  step: number;
  createdAt: number;
  userId?: string;
  /** The model, as `provider/model`. */
  model: string;
  /** The strategy's name. */
  strategy: string;
  /** Ids of the messages the model received, in order. */
  window: string[];
  /** Stored messages left out of the window (or sent cut), oldest first. */
  leftOut: ContextLeftOut[];
  /** Stored messages older than the history read (the strategy's tail): left out without being read. */
  unreadCount: number;
  /** Id of the stored summary (`SummaryRecord.id`) the strategy sent, when it sent one. */
  summaryId?: string;
  /**
   * @deprecated Reports written by earlier versions held the summary text here; new reports keep
   * `summaryId` (and a memory provider's context in `providedContext`), so a deleted summary
   * leaves no copy.
   */
  summary?: string;
  /** The start of a memory provider's context (its summary and other context: not in the store), at most `PROVIDED_CONTEXT_PREVIEW_CHARS` characters. */
  providedContext?: string;
  /** The keys of the facts in the prompt, in their order (`value` only in reports written before values were left out: read the live fact). */
  facts: Array<{ key: string; value?: string }>;
  recalled: ContextRecalledMemory[];
  tokens: ContextTokens;
  /** Tokens the provider reported for the call. */
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  finishReason?: string;
  /** What the agent's `prepareStep` changed for this call; absent when it changed nothing (or there is none). */
  prepareStep?: ContextPrepareStep;
  /** The report was cut to `MAX_CONTEXT_REPORT_BYTES`: the lists keep what fitted, the counts say how many there were. */
  truncated?: true;
  /** With `truncated`: how many ids the window had (`window` keeps the newest). */
  windowCount?: number;
  /** With `truncated`: how many entries `leftOut` had (it keeps the newest). */
  leftOutCount?: number;
  /** With `truncated`: how many facts were in the prompt (`facts` keeps the first). */
  factCount?: number;
  /** With `truncated`: how many memories were recalled (`recalled` keeps the first). */
  recalledCount?: number;
}

/**
 * What a `prepareStep` changed of one model call (its app context is never in a report): the fields
 * of its result that differed from the step's own, and how many of the window's messages it left out
 * (each in `leftOut` with the reason `"prepare-step"`). `model`, `system` and the token counts of
 * the report are those of the call as made.
 */
export interface ContextPrepareStep {
  changed: Array<"model" | "tools" | "toolChoice" | "system" | "messages">;
  droppedCount: number;
}

/** Options of `getContextReports`. */
export interface ContextReportReadOptions {
  /** Only the newest `last` reports (still oldest first). Omitted: all of them. */
  last?: number;
}

/** Checks a report before it is stored: an object with a string id (the idempotency key). */
export function checkContextReport(sessionId: string, report: ContextReport, store: string): void {
  validateSessionId(sessionId);
  if (report === null || typeof report !== "object" || typeof report.id !== "string" || report.id === "") {
    throw new InvalidArgumentError({
      argument: "report",
      value: report,
      message: `${store}.saveContextReport: report must be an object with a non-empty string id.`,
    });
  }
}

/** How many of the newest reports `getContextReports` returns (checked as `getSummaries`' `last`). */
export function contextReportCount(options: unknown, store: string): number {
  if (options === undefined) return Infinity;
  const last = (options as ContextReportReadOptions | null)?.last;
  if (
    options === null ||
    typeof options !== "object" ||
    Array.isArray(options) ||
    (last !== undefined && (typeof last !== "number" || Number.isNaN(last) || last < 0))
  ) {
    throw new InvalidArgumentError({
      argument: "last",
      value: last,
      message: `${store}.getContextReports: options must be an object such as { last: 10 }, with last a number 0 or more.`,
    });
  }
  if (last === undefined) return Infinity;
  const count = Math.floor(last);
  return Number.isSafeInteger(count) ? count : Infinity;
}

/** Adds a report to a session's list (in place): skipped when its id is there, the oldest dropped past the bound. */
export function pushContextReport(reports: ContextReport[], report: ContextReport, max = MAX_CONTEXT_REPORTS): void {
  if (reports.some((existing) => existing.id === report.id)) return;
  reports.push(report);
  if (reports.length > max) reports.splice(0, reports.length - max);
}
