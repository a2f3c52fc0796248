// What every store shares for `deleteMessagesFrom` (regenerate and edit): where the cut is, which
// summaries survive it, and the internal hook of a store that deletes and appends in one write.
import type { AgentMessage } from "../messages/agent-message";
import type { SummaryRecord } from "./memory-store";

/**
 * Where a built-in store keeps its atomic delete-and-append, `(sessionId, messageId, messages)`:
 * `deleteMessagesFrom` and `appendMessages` in one write (one script, transaction or journal line),
 * fenced like appends. Internal: not part of the `MemoryStore` contract; a store without it is
 * served by its `deleteMessagesFrom` then `appendMessages`.
 */
export const replaceMessagesFrom: unique symbol = Symbol.for("agentcore.replaceMessagesFrom");

/** The atomic delete-and-append of a store. */
export type ReplaceMessagesFrom = (sessionId: string, messageId: string, messages: AgentMessage[]) => Promise<void>;

/** The store's atomic delete-and-append, when it has one. */
export function replaceMessagesFromOf(store: object): ReplaceMessagesFrom | undefined {
  const replace = (store as { [replaceMessagesFrom]?: unknown })[replaceMessagesFrom];
  return typeof replace === "function" ? (replace.bind(store) as ReplaceMessagesFrom) : undefined;
}

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
