import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { NothingToRegenerateError } from "../errors/nothing-to-regenerate-error";
import type { AgentMessage, UserMessage } from "../messages/agent-message";
import { contentText } from "../messages/content-text";
import { cutIndex } from "../stores/delete-messages-from";
import type { StoreTurn } from "../stores/store-turn";
import type { TurnRun } from "./turn-run";

/**
 * A regenerate or an edit (`run.rewind`), on the turn the run opened (its lock held, its history
 * read whole): finds the user message the run starts from (the last one, or `replaceFrom`), and
 * gives the run the history before it and a turn whose last append replaces the stored history
 * from that message on (`StoreTurn.replaceFrom`: one write on the built-in stores). The run adds
 * the user message again (a regenerate: the stored one, same id and time; an edit: the new
 * input). Nothing is written before the run's last append, so a run that fails or is aborted
 * leaves the session as it was. A session without such a message: a typed error, nothing changed.
 */
export async function rewindTurn(turn: StoreTurn, run: TurnRun): Promise<{ turn: StoreTurn; run: TurnRun }> {
  const { sessionId } = run;
  const replaceFrom = run.rewind?.replaceFrom;
  const { messages } = await turn.tail();
  let at: number;
  if (replaceFrom === undefined) {
    if (messages.length === 0) throw new NothingToRegenerateError({ sessionId, reason: "empty" });
    // A `streamText` regenerate names the answer (or its question); an id the store does not hold
    // (a stale or foreign id: streamText announces the stored id of the answer it streams) means the last answer.
    const named = run.rewind?.regenerateFrom === undefined ? -1 : cutIndex(messages, run.rewind.regenerateFrom);
    const before = named === -1 ? messages.length - 1 : named;
    at = messages.findLastIndex((message, index) => index <= before && message?.role === "user");
    if (at === -1) throw new NothingToRegenerateError({ sessionId, reason: "no-user-message" });
  } else {
    at = cutIndex(messages, replaceFrom);
    if (at === -1) throw new MessageNotFoundError({ sessionId, messageId: replaceFrom });
    if (messages[at]!.role !== "user") {
      throw new InvalidArgumentError({
        argument: "replaceFrom",
        value: replaceFrom,
        message: `replaceFrom must name a user message; "${replaceFrom}" is a${messages[at]!.role === "assistant" ? "n" : ""} ${messages[at]!.role} message of session "${sessionId}". To answer again, use regenerate: true.`,
      });
    }
  }
  const from = messages[at] as UserMessage;
  if (from.id === undefined) {
    throw new InvalidArgumentError({
      argument: replaceFrom === undefined ? "regenerate" : "replaceFrom",
      message: `The user message at position ${at} of session "${sessionId}" has no id, so it cannot be replaced (it was stored without one).`,
    });
  }
  const cutId = from.id;
  const kept = messages.slice(0, at);
  let pending: AgentMessage[] = [];
  const rewound: StoreTurn = {
    tail: async () => ({ messages: kept, total: kept.length }),
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
