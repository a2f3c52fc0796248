import type { AgentConfig } from "./agent-config";
import type { LoadedHistory } from "./session-history";
import type { TurnLog } from "./turn-log";
import { newId } from "./new-id";
import type { TurnRun } from "./turn-run";

/**
 * The id of the run's new user message: the caller's (`run.messageIds.user`, the id `useChat` gave
 * it, already checked as a message id) unless the history the run read holds a message with that
 * id (a client that reuses ids): then a new one, as without the caller's id, since a store skips
 * an appended id it holds and the message would be lost. An edit's history ends before the
 * message it replaces, so the edited message keeps its id.
 */
export function userMessageId(run: TurnRun, history: LoadedHistory): string {
  const chosen = run.messageIds?.user;
  if (chosen === undefined) return newId();
  const pending = history.pendingApprovals;
  const read = pending ? [...history.messages, pending.assistant, ...pending.results] : history.messages;
  return read.some((message) => message.id === chosen) ? newId() : chosen;
}

/**
 * Persists the run's messages up to its new user message (`id`, none for a run without one) and
 * tells `memory:write` with what was stored. When the id is the caller's and the run read only a
 * tail of the session (older messages unread, so the id could not be checked against them), the
 * append is confirmed first: if the store skipped the message (it held that id further back), it is
 * appended again under a new id, so it is never lost, and the event names only that id. One O(1)
 * tail read, only then; otherwise one append and its event, as for any append.
 */
export async function persistUserMessage(
  config: AgentConfig,
  run: TurnRun,
  history: LoadedHistory,
  log: TurnLog,
  id: string | undefined,
): Promise<void> {
  const confirm = id !== undefined && id === run.messageIds?.user && history.partial && !run.rewind;
  await log.persist({ tell: !confirm });
  if (!confirm) return;
  const { messages } = await config.store.getMessageTail(run.sessionId, 1);
  if (messages.at(-1)?.id !== id) {
    log.renameUnstored(id, newId());
    await log.persist({ tell: false });
  }
  log.tellStored();
}
