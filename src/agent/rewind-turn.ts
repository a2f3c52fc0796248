import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { NothingToRegenerateError } from "../errors/nothing-to-regenerate-error";
import type { AgentMessage, UserMessage } from "../messages/agent-message";
import { contentText } from "../messages/content-text";
import { cutIndex } from "../stores/delete-messages-from";
import type { StoreTurn, TurnTail } from "../stores/store-turn";
import type { TurnRun } from "./turn-run";

/**
 * A regenerate or an edit (`run.rewind`), on the turn the run opened (its lock held, the tail its
 * strategy needs read with it): finds the user message the run starts from (the last one, or
 * `replaceFrom`), and gives the run the history before it and a turn whose last append replaces
 * the stored history from that message on (`StoreTurn.replaceFrom`: one write on the built-in
 * stores). The run adds the user message again (a regenerate: the stored one, same id and time; an
 * edit: the new input). Nothing is written before the run's last append, so a run that fails or is
 * aborted leaves the session as it was. A session without such a message: a typed error, nothing changed.
 *
 * The message is looked for in the tail the turn read; only when it is not there (an edit of an
 * old message, a regenerate id the tail does not hold, which falls back to the last user message
 * only once the whole history shows it is unknown) is a longer tail read, four times as long each
 * time, then the whole history, all under the turn's lock.
 */
export async function rewindTurn(turn: StoreTurn, run: TurnRun): Promise<{ turn: StoreTurn; run: TurnRun }> {
  const { sessionId } = run;
  const replaceFrom = run.rewind?.replaceFrom;
  let read = await turn.tail();
  let at = findCut(read.messages, run, unread(read) > 0);
  while (at === undefined) {
    read = await turn.tail({ limit: longerTail(read) });
    at = findCut(read.messages, run, unread(read) > 0);
  }
  const { messages } = read;
  const from = messages[at] as UserMessage;
  if (from.id === undefined) {
    throw new InvalidArgumentError({
      argument: replaceFrom === undefined ? "regenerate" : "replaceFrom",
      message: `The user message at position ${unread(read) + at} of session "${sessionId}" has no id, so it cannot be replaced (it was stored without one).`,
    });
  }
  const cutId = from.id;
  const kept = messages.slice(0, at);
  /** The stored messages from the cut on: what the run's last append replaces. */
  const removed = messages.length - at;
  const keptTail: TurnTail = {
    messages: kept,
    total: unread(read) + at,
    ...(read.limit === undefined ? {} : { limit: read.limit }),
  };
  let pending: AgentMessage[] = [];
  const rewound: StoreTurn = {
    // A longer tail (a window that reaches the tail's start): read with the messages the run replaces, then cut.
    tail: async (options) =>
      options?.limit === undefined
        ? keptTail
        : cutTail(await turn.tail({ limit: options.limit + removed }), cutId, removed, options.limit),
    async append(appended, { last = false } = {}) {
      pending = [...pending, ...appended];
      if (!last) return;
      const replacing = pending;
      pending = [];
      await turn.replaceFrom(cutId, replacing);
    },
    replaceFrom: (messageId, appended) => turn.replaceFrom(messageId, appended),
    release: () => turn.release(),
  };
  if (replaceFrom !== undefined) return { turn: rewound, run };
  return {
    turn: rewound,
    run: { ...run, input: from.content, inputText: contentText(from.content), userMessage: from },
  };
}

/** The stored messages before the tail `read` (0 for the whole history). */
function unread(read: TurnTail): number {
  return typeof read.total === "number" && Array.isArray(read.messages)
    ? Math.max(0, read.total - read.messages.length)
    : 0;
}

/** The next tail to read: four times as long, or the whole history once that is no longer much less. */
function longerTail(read: TurnTail): number {
  const longer = Math.max(1, read.limit ?? read.messages.length) * 4;
  return longer * 2 >= read.total ? Infinity : longer;
}

/**
 * The index in `messages` of the user message the run starts from; undefined when it may be in
 * the messages not read (`more`); a typed error when the session has none.
 */
function findCut(messages: readonly AgentMessage[], run: TurnRun, more: boolean): number | undefined {
  const { sessionId } = run;
  const replaceFrom = run.rewind?.replaceFrom;
  if (replaceFrom === undefined) {
    if (messages.length === 0) {
      if (more) return undefined;
      throw new NothingToRegenerateError({ sessionId, reason: "empty" });
    }
    // A `streamText` regenerate names the answer (or its question); an id the store does not hold
    // (a stale or foreign id: streamText announces the stored id of the answer it streams) means the last answer.
    const named = run.rewind?.regenerateFrom === undefined ? -1 : cutIndex(messages, run.rewind.regenerateFrom);
    if (named === -1 && run.rewind?.regenerateFrom !== undefined && more) return undefined;
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
  const chosen = run.messageIds?.user;
  if (more && chosen !== undefined && chosen !== replaceFrom) return undefined;
  return at;
}

/** A longer tail read for a rewound turn, the `removed` messages from the cut on left out. */
function cutTail(read: TurnTail, cutId: string, removed: number, limit: number): TurnTail {
  const found = cutIndex(read.messages, cutId);
  const end = found === -1 ? Math.max(0, read.messages.length - removed) : found;
  return {
    messages: read.messages.slice(0, end),
    total: read.total - (read.messages.length - end),
    ...(read.limit === undefined ? {} : { limit }),
  };
}
