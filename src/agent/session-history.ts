import { noMessageLimits } from "../messages/message-limits";
import { StoreError } from "../errors/store-error";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { parseAgentMessages, type AgentMessage } from "../messages/agent-message";
import { splitPendingApprovals, type PendingApprovalStep } from "../messages/pending-approvals";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import { tailReadLimit, type TurnTail } from "../stores/store-turn";
import type { StoreBackend } from "../stores/store-backend";
import type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyResult } from "../strategies/memory-strategy";
import { AbortError } from "../errors/abort-error";
import { withTokenizer } from "../tokens/with-tokenizer";

/** A session's history as read for the model. */
export interface LoadedHistory {
  messages: AgentMessage[];
  /** Position in the stored session of `messages[0]` (0: the session's start). */
  offset: number;
  /** Older messages are stored that were not read (a tail read). */
  partial: boolean;
  /** The tail length asked for, when a tail was read. */
  limit?: number;
  /** The step at the session's end whose calls await the user's approval: not in `messages` (docs/approvals.md). */
  pendingApprovals?: PendingApprovalStep;
}

/**
 * Reads a session's history for the model: its last `limit` messages (a strategy's
 * `historyLimit`) where the store reads a tail natively, else the whole history, then
 * `parseSessionHistory`. Messages whose id is in `exclude` (this run's own, already stored) are left out.
 */
export async function loadSessionHistory(
  store: StoreBackend,
  sessionId: string,
  options: { limit?: number; exclude?: ReadonlySet<string> } = {},
): Promise<LoadedHistory> {
  const limit = tailReadLimit(store.capabilities.getMessageTail, options.limit);
  const read: TurnTail =
    limit === undefined
      ? wholeHistory(await store.getMessages(sessionId))
      : await readWholeLastTurn({ ...(await store.getMessageTail(sessionId, limit)), limit }, async (longer) => ({
          ...(await store.getMessageTail(sessionId, longer)),
          limit: longer,
        }));
  return parseSessionHistory(store, sessionId, read, options.exclude);
}

/**
 * A tail that holds the session's last turn whole: while the tail is partial and holds no user
 * message (it starts inside a turn longer than the read, e.g. steps of many parallel calls), a
 * tail twice as long is read with `readLonger` (under the run's lock, for a run), up to the whole
 * session. `parseSessionHistory` cuts a partial tail to its first user message, and the step that
 * awaits approval is the last turn's: without its user message in the tail, it would be cut with
 * the rest, and the pending calls lost (docs/approvals.md).
 */
export async function readWholeLastTurn(
  read: TurnTail,
  readLonger: (limit: number) => Promise<TurnTail>,
): Promise<TurnTail> {
  let tail = read;
  while (startsInsideTurn(tail)) tail = await readLonger(tail.limit! * 2);
  return tail;
}

/** A partial tail (older messages unread) without a user message; not a tail when unsure of its shape. */
function startsInsideTurn(read: TurnTail): boolean {
  if (read.limit === undefined || !Array.isArray(read.messages)) return false;
  if (!(typeof read.total === "number" && read.total > read.messages.length)) return false;
  if (read.messages.length < read.limit) return false;
  return !read.messages.some((message) => (message as { role?: unknown } | null)?.role === "user");
}

/**
 * A session's history as read from the store (a tail with its `limit`, or the whole history),
 * made ready for the model: parsed at the boundary (a bad record is a typed error naming it),
 * system messages left out (they are never part of stored history), and the pairing rule restored
 * for histories that arrive broken (a custom store, an old import), a step awaiting approval held
 * back (`pendingApprovals`). A tail that starts inside a
 * turn is cut to its first user message, so the history still begins with one.
 */
export function parseSessionHistory(
  store: StoreBackend,
  sessionId: string,
  read: TurnTail,
  exclude?: ReadonlySet<string>,
  /** `false`: assistant messages' `metadata` left out (the run's read for its model, which never sees it). */
  metadata = true,
): LoadedHistory {
  const limit = read.limit;
  const tail = limit !== undefined;
  const operation = tail ? "getMessageTail" : "getMessages";
  const raw: unknown = read?.messages;
  const total: unknown = read?.total;
  let parsed: AgentMessage[];
  try {
    parsed = parseAgentMessages(raw ?? [], {
      source: `The history of session "${sessionId}"`,
      limits: noMessageLimits,
      stored: read.stored === true,
      metadata,
    });
  } catch (error) {
    if (!InvalidMessageError.isInstance(error)) throw error;
    throw new StoreError({
      store: store.name,
      operation,
      sessionId,
      message: `The ${store.name} returned a bad record for session "${sessionId}": ${error.message}`,
      cause: error,
    });
  }
  if (tail && !(typeof total === "number" && Number.isInteger(total) && total >= parsed.length)) {
    throw new StoreError({
      store: store.name,
      operation,
      sessionId,
      message: `The ${store.name} returned a bad tail for session "${sessionId}": total must be an integer of at least the ${parsed.length} message(s) returned, got ${JSON.stringify(total)}.`,
    });
  }
  let offset = tail ? (total as number) - parsed.length : 0;
  const partial = offset > 0;
  let from = 0;
  if (partial) {
    // The tail may start inside a turn: begin at its first user message.
    const firstUser = parsed.findIndex((message) => message.role === "user");
    from = firstUser === -1 ? parsed.length : firstUser;
    offset += from;
  }
  // One pass from there, system messages and `exclude` left out; tool traffic noted on the way.
  const history: AgentMessage[] = [];
  let toolTraffic = false;
  for (let index = from; index < parsed.length; index++) {
    const message = parsed[index]!;
    if (message.role === "system" || (exclude && message.id !== undefined && exclude.has(message.id))) continue;
    history.push(message);
    if (message.role === "tool" || (message.role === "assistant" && message.toolCalls !== undefined))
      toolTraffic = true;
  }
  // A step awaiting approval is held back: its calls have no results to send yet. Without tool
  // traffic there is neither such a step nor a pairing to restore.
  const { messages, step } = toolTraffic ? splitPendingApprovals(history) : { messages: history, step: undefined };
  return {
    messages: toolTraffic ? repairToolPairing(messages).messages : messages,
    offset,
    partial,
    ...(tail ? { limit } : {}),
    ...(step ? { pendingApprovals: step } : {}),
  };
}

/** A whole history as a read (`total` its length; what is not an array is left for the parser to refuse). */
function wholeHistory(messages: AgentMessage[]): TurnTail {
  return { messages, total: Array.isArray(messages) ? messages.length : 0 };
}

/**
 * Applies a strategy to the history read so far plus this run's messages (`turn`, already stored
 * or about to be). When the history is a tail and the strategy's window reaches its start
 * (`needsEarlierHistory`), reads a tail twice as long, this run's own messages left out, and
 * applies again, up to the whole session. Returns the window, the history it was fitted on (keep
 * it for the run's next steps) and the messages given to the strategy. `readTail` reads those
 * longer tails (the run's `StoreTurn.tail`: under its lock, and for a regenerate or an edit without
 * the messages it replaces); without it, the store's.
 */
export async function applyStrategy(
  strategy: IMemoryStrategy,
  store: StoreBackend,
  sessionId: string,
  loaded: LoadedHistory,
  turn: readonly AgentMessage[],
  context: Omit<MemoryStrategyContext, "sessionId" | "store" | "historyOffset" | "partialHistory">,
  readTail?: (limit: number) => Promise<TurnTail>,
): Promise<{ result: MemoryStrategyResult; history: LoadedHistory; messages: AgentMessage[] }> {
  let history = loaded;
  let messages = [...history.messages, ...turn];
  // On the edge an encoding loads only asynchronously: a strategy that had to count before it was
  // loaded is applied again once it is (strategies are pure, so that is safe).
  const apply = () =>
    withTokenizer(() =>
      strategy.apply(messages, {
        ...context,
        sessionId,
        store: store.store,
        ...(history.offset > 0 ? { historyOffset: history.offset } : {}),
        ...(history.partial ? { partialHistory: true } : {}),
      }),
    );
  let result = await apply();
  while (result.needsEarlierHistory && history.partial && history.limit !== undefined) {
    if (context.abortSignal?.aborted) throw new AbortError({ sessionId, cause: context.abortSignal.reason });
    const exclude = new Set(turn.flatMap((message) => (message.id === undefined ? [] : [message.id])));
    const limit = history.limit * 2 + turn.length;
    history = readTail
      ? parseSessionHistory(store, sessionId, await readTail(limit), exclude, false)
      : await loadSessionHistory(store, sessionId, { limit, exclude });
    messages = [...history.messages, ...turn];
    result = await apply();
  }
  return { result, history, messages };
}
