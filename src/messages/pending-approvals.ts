import type { AgentMessage, AssistantMessage, ToolCall, ToolMessage } from "./agent-message";

/** The user's answer to a tool call that awaits approval: `agent.run({ sessionId, approvals: [...] })`. */
export interface ToolApprovalResponse {
  toolCallId: string;
  approved: boolean;
  /** Why (a denial's reason is what the model is told). */
  reason?: string;
  /** When given, it must be the request's `approvalId` (a `useChat` response carries it). */
  approvalId?: string;
}

/**
 * A step whose calls await the user's approval (docs/approvals.md): the stored assistant message
 * whose calls needing approval have no tool message yet, and the results its other calls already
 * have. It is the last step of the session: nothing but its tool messages comes after it.
 */
export interface PendingApprovalStep {
  assistant: AssistantMessage;
  /** The tool messages stored after it so far, in order. */
  results: ToolMessage[];
  /** Its calls that need approval and have no result yet, in the order the model made them. */
  pending: (ToolCall & { approval: { id: string } })[];
}

/**
 * Splits a history (parsed, before the pairing rule is restored) into what may be sent to a model
 * and the step awaiting approval at its end, if there is one: that step is left out, so a call
 * without its result is never sent. Returns the messages themselves when nothing awaits.
 */
export function splitPendingApprovals(messages: AgentMessage[]): {
  messages: AgentMessage[];
  step?: PendingApprovalStep;
} {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role === "tool") index--;
  const assistant = messages[index];
  if (assistant?.role !== "assistant" || !assistant.toolCalls?.some((call) => call.approval)) return { messages };
  const results = messages.slice(index + 1) as ToolMessage[];
  const answered = new Set(results.map((result) => result.toolCallId));
  const pending = assistant.toolCalls.filter(
    (call): call is ToolCall & { approval: { id: string } } => call.approval !== undefined && !answered.has(call.id),
  );
  if (pending.length === 0) return { messages };
  return { messages: messages.slice(0, index), step: { assistant, results, pending } };
}
