import type { AgentMessage, AssistantMessage, ToolCall } from "../messages/agent-message";
import type { ToolApprovalResponse } from "../messages/pending-approvals";

/** The index of the conversation's last step (its last assistant message, only tool messages after it), or -1. */
function lastStepIndex(messages: readonly AgentMessage[]): number {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role === "tool") index--;
  return messages[index]?.role === "assistant" ? index : -1;
}

/** Whether a call carries the user's answer and has not run: an `approval-responded` part as converted. */
function isAnswered(call: ToolCall, answered: ReadonlySet<string>): boolean {
  return call.approval?.approved !== undefined && !answered.has(call.id);
}

/**
 * The messages without the calls of the last step that carry the user's approval answer and have
 * no result yet (what `convertToModelMessages` gives for `approval-responded` parts), so the
 * pairing rule can be checked on the rest: such a call anywhere else has no result and breaks it.
 */
export function withoutAnsweredApprovals(messages: AgentMessage[]): AgentMessage[] {
  const index = lastStepIndex(messages);
  if (index === -1) return messages;
  const assistant = messages[index] as AssistantMessage;
  const results = new Set(messages.slice(index + 1).map((message) => (message as { toolCallId: string }).toolCallId));
  if (!assistant.toolCalls?.some((call) => isAnswered(call, results))) return messages;
  const toolCalls = assistant.toolCalls.filter((call) => !isAnswered(call, results));
  const copy = [...messages];
  copy[index] = { ...assistant, ...(toolCalls.length > 0 ? { toolCalls } : { toolCalls: undefined }) };
  return copy;
}

/**
 * The user's approval answers a converted conversation ends with: the calls of its last step that
 * carry an answer and have no result yet. `streamText` continues the stored turn with them.
 */
export function answeredApprovals(messages: readonly AgentMessage[]): ToolApprovalResponse[] {
  const index = lastStepIndex(messages);
  if (index === -1) return [];
  const assistant = messages[index] as AssistantMessage;
  const results = new Set(messages.slice(index + 1).map((message) => (message as { toolCallId: string }).toolCallId));
  return (assistant.toolCalls ?? [])
    .filter((call) => isAnswered(call, results))
    .map((call) => ({
      toolCallId: call.id,
      approvalId: call.approval!.id,
      approved: call.approval!.approved!,
      ...(call.approval!.reason === undefined ? {} : { reason: call.approval!.reason }),
    }));
}
