// The cut rule of regenerate and edit, in one place: which user message a rewound run starts from
// (`findRewindCut`, on the tail its turn read), how a longer tail is read around the cut, where a
// store cuts (`cutIndex`) and which summaries survive the cut (`summariesAfterCut`).
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { NothingToRegenerateError } from "../errors/nothing-to-regenerate-error";
import type { AgentMessage } from "../messages/agent-message";
import type { SummaryRecord } from "./memory-store";
import type { TurnTail } from "./store-turn";

/** The index of the message with id `messageId`, searched from the end (a cut is usually recent); -1 when absent. */
export function cutIndex(messages: readonly AgentMessage[], messageId: string): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.id === messageId) return index;
  return -1;
}

/**
 * The summaries that stay valid once a session keeps only its first `kept` messages and the
 * messages with `removedIds` are gone: a summary covering a deleted message (its `messageCount`
 * reaching past the cut, or its first or last message deleted) would stand for messages that are
 * no longer there, so it goes with them; the summary strategy then summarises again when needed.
 */
export function summariesAfterCut(
  summaries: readonly SummaryRecord[],
  kept: number,
  removedIds: ReadonlySet<string>,
): SummaryRecord[] {
  return summaries.filter(
    (summary) =>
      summary.messageCount <= kept && !removedIds.has(summary.toMessageId) && !removedIds.has(summary.fromMessageId),
  );
}

/** The ids of `messages` (those that have one). */
export function idsOf(messages: readonly AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.id !== undefined) ids.add(message.id);
  return ids;
}

/** What a regenerate or an edit asks for (`run.rewind`). */
export interface RewindTarget {
  sessionId: string;
  /** An edit: the id of the user message replaced. Undefined: a regenerate. */
  replaceFrom?: string | undefined;
  /** A `streamText` regenerate: the id of the answer (or its question) to answer again. */
  regenerateFrom?: string | undefined;
  /** The id the caller chose for the edit's new user message. */
  userMessageId?: string | undefined;
}

/**
 * The index in `messages` (a tail, or the whole history) of the user message a rewound run starts
 * from; undefined when it may be in the stored messages not read (`more`): read a longer tail
 * (`longerTail`) and look again. A typed error when the session has none.
 */
export function findRewindCut(
  messages: readonly AgentMessage[],
  target: RewindTarget,
  more: boolean,
): number | undefined {
  const { sessionId, replaceFrom, regenerateFrom } = target;
  if (replaceFrom === undefined) {
    if (messages.length === 0) {
      if (more) return undefined;
      throw new NothingToRegenerateError({ sessionId, reason: "empty" });
    }
    // A `streamText` regenerate names the answer (or its question); an id the store does not hold
    // (a stale or foreign id: streamText announces the stored id of the answer it streams) means the last answer.
    const named = regenerateFrom === undefined ? -1 : cutIndex(messages, regenerateFrom);
    if (named === -1 && regenerateFrom !== undefined && more) return undefined;
    const before = named === -1 ? messages.length - 1 : named;
    const at = messages.findLastIndex((message, index) => index <= before && message?.role === "user");
    if (at !== -1) return at;
    if (more) return undefined;
    throw new NothingToRegenerateError({ sessionId, reason: "no-user-message" });
  }
  const at = cutIndex(messages, replaceFrom);
  if (at === -1) {
    if (more) return undefined;
    throw new MessageNotFoundError({ sessionId, messageId: replaceFrom });
  }
  const role = messages[at]!.role;
  if (role !== "user") {
    throw new InvalidArgumentError({
      argument: "replaceFrom",
      value: replaceFrom,
      message: `replaceFrom must name a user message; "${replaceFrom}" is a${role === "assistant" ? "n" : ""} ${role} message of session "${sessionId}". To answer again, use regenerate: true.`,
    });
  }
  // The edit's new user message under an id of the caller's other than the one it replaces: it must
  // not be one the session holds further back (the store would skip it), so that needs the whole history.
  const chosen = target.userMessageId;
  if (more && chosen !== undefined && chosen !== replaceFrom) return undefined;
  return at;
}

/** The stored messages before the tail `read` (0 for the whole history). */
export function unreadBefore(read: TurnTail): number {
  return typeof read.total === "number" && Array.isArray(read.messages)
    ? Math.max(0, read.total - read.messages.length)
    : 0;
}

/** The next tail to read when the cut was not found: four times as long, or the whole history once that is no longer much less. */
export function longerTail(read: TurnTail): number {
  const longer = Math.max(1, read.limit ?? read.messages.length) * 4;
  return longer * 2 >= read.total ? Infinity : longer;
}

/** A longer tail read for a rewound turn, the `removed` messages from the cut on left out. */
export function cutTail(read: TurnTail, cutId: string, removed: number, limit: number): TurnTail {
  const found = cutIndex(read.messages, cutId);
  const end = found === -1 ? Math.max(0, read.messages.length - removed) : found;
  return {
    messages: read.messages.slice(0, end),
    total: read.total - (read.messages.length - end),
    ...(read.limit === undefined ? {} : { limit }),
  };
}
