import type { AgentMessage } from "./agent-message";
import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";

/**
 * Checks the pairing rule (docs/architecture.md; Anthropic's, applied to every provider): every
 * tool call is answered by a tool message with its id in the run of tool messages right after the
 * assistant message that made it, and no tool message exists without its call.
 *
 * Returns the list of problems; an empty list means the messages may be sent to any provider.
 */
export function findToolPairingIssues(messages: readonly AgentMessage[]): MessageIssue[] {
  const issues: MessageIssue[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    if (message.role === "tool") {
      issues.push({
        index,
        path: "toolCallId",
        message: `tool result "${message.toolCallId}" has no matching tool call in the assistant message before it`,
      });
      index++;
      continue;
    }
    if (message.role !== "assistant" || !message.toolCalls?.length) {
      index++;
      continue;
    }
    const open = new Map<string, number>();
    message.toolCalls.forEach((call, callIndex) => {
      if (open.has(call.id)) {
        issues.push({ index, path: `toolCalls.${callIndex}.id`, message: `duplicate tool call id "${call.id}"` });
      }
      open.set(call.id, callIndex);
    });
    const assistantIndex = index;
    index++;
    while (index < messages.length && messages[index]!.role === "tool") {
      const result = messages[index] as Extract<AgentMessage, { role: "tool" }>;
      if (open.has(result.toolCallId)) {
        open.delete(result.toolCallId);
      } else {
        issues.push({
          index,
          path: "toolCallId",
          message: `tool result "${result.toolCallId}" does not answer a call of the assistant message at ${assistantIndex}`,
        });
      }
      index++;
    }
    for (const [id, callIndex] of open) {
      issues.push({
        index: assistantIndex,
        path: `toolCalls.${callIndex}`,
        message: `tool call "${id}" has no tool result right after its assistant message`,
      });
    }
  }
  return issues;
}

/** Throws an `InvalidMessageError` when `messages` break the pairing rule. */
export function assertToolPairing(messages: readonly AgentMessage[]): void {
  const issues = findToolPairingIssues(messages);
  if (issues.length > 0) throw new InvalidMessageError({ issues });
}

/** Returns true when `messages` keep the pairing rule. */
export function isToolPairingValid(messages: readonly AgentMessage[]): boolean {
  return findToolPairingIssues(messages).length === 0;
}
