import type { AgentMessage } from "../messages/agent-message";
import type { MemoryStore, SummaryRecord } from "../stores/memory-store";
import type { MemoryStrategyContext } from "./memory-strategy";

/** The key a summary record uses for a message: its id, or its position in the session for messages without one. */
export function messageKey(message: AgentMessage, position: number, pinnedEnd: number): string {
  return message.id ?? `#${position - pinnedEnd}`;
}

/**
 * The index right after the last message a record covers, or undefined when the history (a tail
 * starting at position `offset` of the session, or all of it) does not hold that message.
 */
export function findCoveredEnd(
  history: readonly AgentMessage[],
  pinnedEnd: number,
  offset: number,
  record: SummaryRecord,
): number | undefined {
  const expected = pinnedEnd + record.messageCount - 1 - offset;
  const at = (index: number) =>
    index >= pinnedEnd &&
    index < history.length &&
    messageKey(history[index]!, offset + index, pinnedEnd) === record.toMessageId;
  let found: number | undefined;
  if (at(expected)) found = expected;
  else if (!record.toMessageId.startsWith("#")) {
    for (let index = history.length - 1; index >= pinnedEnd; index--) {
      if (history[index]!.id === record.toMessageId) {
        found = index;
        break;
      }
    }
  }
  if (found === undefined) return undefined;
  // Only whole turns are ever covered; a record ending inside a turn (a rewritten history) is not used.
  const next = history[found + 1];
  if (next !== undefined && next.role !== "user") return undefined;
  return found + 1;
}

/** The newest of `records` whose last message this history holds, and the index right after it. */
export function newestCovering(
  records: readonly SummaryRecord[],
  history: readonly AgentMessage[],
  pinnedEnd: number,
  offset: number,
): { record: SummaryRecord; end: number } | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const end = findCoveredEnd(history, pinnedEnd, offset, records[index]!);
    if (end !== undefined) return { record: records[index]!, end };
  }
  return undefined;
}

/** What one summariser call covers: `history[from, to)`, after `previous`, in the stored session from `offset`. */
export interface SummarizeRequest {
  history: readonly AgentMessage[];
  /** End of the pinned system messages. */
  pinnedEnd: number;
  /** Position of `history[0]` in the stored session. */
  offset: number;
  from: number;
  to: number;
  previous: SummaryRecord | undefined;
  context: MemoryStrategyContext;
  /** Where the summary is saved; undefined: kept by this strategy. */
  store: MemoryStore | undefined;
}
