import type { AgentMessage, AssistantMessage, ToolCall, UserMessage } from "../messages/agent-message";
import type { PendingApprovalStep } from "../messages/pending-approvals";
import { sameContent } from "../messages/same-content";
import type { LoadedHistory } from "./session-history";
import type { TurnRun } from "./turn-run";

/**
 * A request sent twice runs once (DESIGN.md §2: a message id is an idempotency key). A run whose
 * new user message carries an id the session already holds, with the same content, is a retry of
 * that turn (a double-sent `useChat` request, a client's retry after a dropped response, the second
 * of two concurrent requests, which waited for the first under the session's lock): it calls no
 * model and runs no tool, and answers with the turn the store holds (`replayTurn`).
 */
export interface RetriedTurn {
  /** The stored user message the request repeats. */
  user: UserMessage;
  /** What the store holds after it, up to the next user message: the turn's assistant and tool messages. */
  turn: AgentMessage[];
  /** The step awaiting approval that ends the turn, when it is the session's last. */
  pending?: PendingApprovalStep;
}

/**
 * What the history the run read says of its caller-chosen user message id: a retry of a stored
 * turn (same id, same content), `"reused"` (the id names another message: the run stores its
 * message under a new id, as before), or undefined (the id is new to what was read). A regenerate
 * or an edit keeps its id on purpose: never a retry.
 */
export function findRetriedTurn(run: TurnRun, history: LoadedHistory): RetriedTurn | "reused" | undefined {
  const chosen = run.messageIds?.user;
  if (chosen === undefined || run.input === undefined || run.rewind || run.userMessage) return undefined;
  const messages = history.messages;
  const index = messages.findIndex((message) => message.id === chosen);
  const pending = history.pendingApprovals;
  if (index === -1) {
    const inPending = pending && [pending.assistant, ...pending.results].some((message) => message.id === chosen);
    return inPending ? "reused" : undefined;
  }
  const user = messages[index]!;
  if (user.role !== "user" || !sameContent(user.content, run.input)) return "reused";
  return storedTurn(user, messages, index + 1, pending);
}

/** The turn after the stored user message at `index - 1`, up to the next user message (or the pending step). */
export function storedTurn(
  user: UserMessage,
  messages: readonly AgentMessage[],
  from: number,
  pending: PendingApprovalStep | undefined,
): RetriedTurn {
  const turn: AgentMessage[] = [];
  for (let index = from; index < messages.length && messages[index]!.role !== "user"; index++)
    turn.push(messages[index]!);
  const last = from + turn.length >= messages.length;
  return { user, turn, ...(pending && last ? { pending } : {}) };
}

/** The assistant messages and tool calls of a retried turn, in order, the pending step's last. */
export function retriedMessages(retried: RetriedTurn): AgentMessage[] {
  return retried.pending ? [...retried.turn, retried.pending.assistant, ...retried.pending.results] : [...retried.turn];
}

/** The calls of a retried turn's assistant messages. */
export function retriedToolCalls(messages: readonly AgentMessage[]): ToolCall[] {
  return messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
}

/** The assistant messages of a retried turn. */
export function retriedAnswers(messages: readonly AgentMessage[]): AssistantMessage[] {
  return messages.filter((message): message is AssistantMessage => message.role === "assistant");
}
