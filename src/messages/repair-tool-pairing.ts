import type { AgentMessage, ToolMessage } from "./agent-message";

/** Content of the tool result that closes a call whose result never arrived. */
export const MISSING_TOOL_RESULT_CONTENT =
  "[agentcore] No result was recorded for this tool call (the run was interrupted or the history was imported without it).";

export interface RepairToolPairingResult {
  messages: AgentMessage[];
  /** Tool results dropped because no call in the assistant message before them made them. */
  droppedResults: ToolMessage[];
  /** Tool results added to close calls that had none. */
  addedResults: ToolMessage[];
}

/**
 * Makes a history that arrived broken (a stored abort, an old import, a hand-written store)
 * keep the pairing rule: orphan tool results are dropped, duplicate results keep the first,
 * results separated from their call are moved right after it, and calls without a result are
 * closed with a tool message that says so. A valid history comes back unchanged (same objects).
 * The input array is never modified.
 */
export function repairToolPairing(messages: readonly AgentMessage[]): RepairToolPairingResult {
  const droppedResults: ToolMessage[] = [];
  const addedResults: ToolMessage[] = [];
  // Every result, by call id, so a result stored out of place can be put back after its call.
  const resultsById = new Map<string, ToolMessage>();
  const callIds = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) callIds.add(call.id);
  }
  for (const message of messages) {
    if (message.role !== "tool") continue;
    if (!callIds.has(message.toolCallId) || resultsById.has(message.toolCallId)) {
      droppedResults.push(message);
    } else {
      resultsById.set(message.toolCallId, message);
    }
  }

  const output: AgentMessage[] = [];
  for (const message of messages) {
    if (message.role === "tool") continue;
    output.push(message);
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const answered = new Set<string>();
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      answered.add(call.id);
      const result = resultsById.get(call.id);
      if (result) {
        resultsById.delete(call.id);
        output.push(result);
      } else {
        const closing: ToolMessage = {
          role: "tool",
          toolCallId: call.id,
          name: call.name,
          content: MISSING_TOOL_RESULT_CONTENT,
          ...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
        };
        addedResults.push(closing);
        output.push(closing);
      }
    }
  }
  const unchanged =
    droppedResults.length === 0 &&
    addedResults.length === 0 &&
    output.length === messages.length &&
    output.every((message, index) => message === messages[index]);
  return { messages: unchanged ? [...messages] : output, droppedResults, addedResults };
}
