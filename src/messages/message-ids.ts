import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";
import type { AgentMessage } from "./agent-message";
import { hasControlCharacter, hasLoneSurrogate, isPrintableAscii } from "./session-id";

/**
 * What is wrong with a message id or tool call id, or undefined when nothing is. The rule of
 * session ids (`validateSessionId`): no control characters, and well-formed Unicode. A lone
 * surrogate has no UTF-8 form: PostgreSQL and Redis would store `"id\ud800"` as `"id\ufffd"`, and
 * a later message with that id would be skipped as a duplicate and lost.
 */
export function messageIdIssue(id: string): string | undefined {
  if (isPrintableAscii(id)) return undefined; // the common case, without the two patterns
  if (hasControlCharacter(id)) return "must not contain control characters";
  if (hasLoneSurrogate(id))
    return "must be well-formed Unicode: it contains a lone surrogate (an unpaired \\ud800-\\udfff)";
  return undefined;
}

/**
 * Checks the ids of messages about to be stored: each message's `id`, a tool message's
 * `toolCallId`, an assistant message's tool call ids. Throws an `InvalidMessageError` naming each
 * message and field (`id`, `toolCallId`, `toolCalls.0.id`). Other fields are the store's to keep.
 */
export function validateMessageIds(messages: readonly AgentMessage[]): void {
  let issues: MessageIssue[] | undefined;
  const check = (index: number, path: string, id: unknown) => {
    if (typeof id !== "string") return;
    const issue = messageIdIssue(id);
    if (issue !== undefined) (issues ??= []).push({ index, path, message: `${path} ${issue}` });
  };
  messages.forEach((message, index) => {
    check(index, "id", message.id);
    if (message.role === "tool") check(index, "toolCallId", message.toolCallId);
    if (message.role === "assistant" && Array.isArray(message.toolCalls))
      message.toolCalls.forEach((toolCall, call) => check(index, `toolCalls.${call}.id`, toolCall?.id));
  });
  if (issues) throw new InvalidMessageError({ issues });
}

/**
 * A message id given as an argument (`deleteMessagesFrom`, a run's `replaceFrom`, a request's
 * `messageId`): a non-empty string of at most 1,000 characters with no issue (`messageIdIssue`).
 * Throws an `InvalidArgumentError` naming `argument` otherwise; returns the id.
 */
export function validateMessageIdArgument(id: unknown, argument = "messageId"): string {
  const issue =
    typeof id !== "string" || id.length === 0
      ? "must be a non-empty string"
      : id.length > 1_000
        ? `is ${id.length} characters long; the limit is 1000`
        : messageIdIssue(id);
  if (issue !== undefined) {
    throw new InvalidArgumentError({
      argument,
      value: typeof id === "string" ? id.slice(0, 100) : id,
      message: `${argument} ${issue}.`,
    });
  }
  return id as string;
}
