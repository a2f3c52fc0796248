import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage, UserMessage } from "../messages/agent-message";
import { contentText } from "../messages/content-text";
import { cutTail, findRewindCut, longerTail, unreadBefore as unread, type RewindTarget } from "../stores/history-cut";
import type { StoreTurn, TurnTail } from "../stores/store-turn";
import { addTotals, type UsageTotals } from "../stores/usage-totals";
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
 * The cut rule (which message, how a longer tail is read around it) is `stores/history-cut.ts`.
 * The message is looked for in the tail the turn read; only when it is not there (an edit of an
 * old message, a regenerate id the tail does not hold, which falls back to the last user message
 * only once the whole history shows it is unknown) is a longer tail read, four times as long each
 * time, then the whole history, all under the turn's lock.
 */
export async function rewindTurn(turn: StoreTurn, run: TurnRun): Promise<{ turn: StoreTurn; run: TurnRun }> {
  const { sessionId } = run;
  const replaceFrom = run.rewind?.replaceFrom;
  const target: RewindTarget = {
    sessionId,
    replaceFrom,
    regenerateFrom: run.rewind?.regenerateFrom,
    userMessageId: run.messageIds?.user,
  };
  let read = await turn.tail();
  let at = findRewindCut(read.messages, target, unread(read) > 0);
  while (at === undefined) {
    read = await turn.tail({ limit: longerTail(read) });
    at = findRewindCut(read.messages, target, unread(read) > 0);
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
  let pendingUsage: UsageTotals | undefined;
  const rewound: StoreTurn = {
    // A longer tail (a window that reaches the tail's start): read with the messages the run replaces, then cut.
    tail: async (options) =>
      options?.limit === undefined
        ? keptTail
        : cutTail(await turn.tail({ limit: options.limit + removed }), cutId, removed, options.limit),
    async append(appended, { last = false, usage } = {}) {
      pending = [...pending, ...appended];
      if (usage) pendingUsage = pendingUsage ? addTotals(pendingUsage, usage) : usage;
      if (!last) return;
      const replacing = pending;
      const spent = pendingUsage;
      pending = [];
      pendingUsage = undefined;
      // The replace always writes: what the run spent is added with it.
      await turn.replaceFrom(cutId, replacing, { usage: spent });
    },
    replaceFrom: (messageId, appended, options) => turn.replaceFrom(messageId, appended, options),
    release: () => turn.release(),
  };
  if (replaceFrom !== undefined) return { turn: rewound, run };
  return {
    turn: rewound,
    run: { ...run, input: from.content, inputText: contentText(from.content), userMessage: from },
  };
}
