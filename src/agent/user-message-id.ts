import type { AgentConfig } from "./agent-config";
import { findRetriedTurn, type RetriedTurn } from "./retried-turn";
import { parseSessionHistory, type LoadedHistory } from "./session-history";
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
export function userMessageId(run: TurnRun, history: LoadedHistory, retried?: "reused"): string {
  const chosen = run.messageIds?.user;
  if (chosen === undefined) return newId();
  const pending = history.pendingApprovals;
  const read = pending ? [...history.messages, pending.assistant, ...pending.results] : history.messages;
  if (retried !== "reused" && !read.some((message) => message.id === chosen)) return chosen;
  return renamed(run, chosen);
}

/** A new id for a caller's id that names another stored message, told as `message:renamed`. */
function renamed(run: TurnRun, requestedId: string): string {
  const id = newId();
  run.notifier.notify({ type: "message:renamed", requestedId, id });
  return id;
}

/**
 * Persists the run's messages up to its new user message (`id`, none for a run without one) and
 * tells `memory:write` with what was stored. When the id is the caller's and the run read only a
 * tail of the session (older messages unread, so the id could not be checked against them), the
 * append is confirmed first: if the store skipped the message (it held that id further back), it is
 * appended again under a new id, so it is never lost, and the event names only that id; unless the
 * message it holds is this one (same content): then the request is a retry of that turn, returned
 * for the run to answer with (nothing of it stored). One O(1) tail read, only then (and one whole
 * read when skipped); otherwise one append and its event, as for any append.
 */
export async function persistUserMessage(
  config: AgentConfig,
  run: TurnRun,
  history: LoadedHistory,
  log: TurnLog,
  id: string | undefined,
): Promise<RetriedTurn | undefined> {
  const confirm = id !== undefined && id === run.messageIds?.user && history.partial && !run.rewind;
  await log.persist({ tell: !confirm });
  if (!confirm) return undefined;
  const { messages } = await config.store.getMessageTail(run.sessionId, 1);
  if (messages.at(-1)?.id !== id) {
    // The store holds the id further back than the run read: the same message is a retry of its
    // turn (one whole read, only then); another is stored again under a new id.
    const whole = parseSessionHistory(config.store, run.sessionId, {
      messages: await config.store.getMessages(run.sessionId),
      total: 0,
    });
    const retried = findRetriedTurn(run, whole);
    if (retried !== undefined && retried !== "reused") return retried;
    log.renameUnstored(id, renamed(run, id));
    await log.persist({ tell: false });
  }
  log.tellStored();
  return undefined;
}
