import { parseAgentMessages, type AgentMessage, type ToolMessage } from "../messages/agent-message";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import type { UIMessageV5, UIMessagePart } from "./ui-message";

/**
 * Converts stored agent messages into UI messages (AI SDK v5+ shape) so a page can show a
 * session's history. The assistant messages and tool results of one turn become one UI
 * assistant message with a `step-start` part per step and `tool-<name>` parts in state
 * `output-available`. Ids and timestamps go in `metadata.agentcore`, so
 * `convertToModelMessages(convertToUIMessages(history))` gives the history back.
 */
export function convertToUIMessages(messages: readonly AgentMessage[]): UIMessageV5[] {
  const history = repairToolPairing(parseAgentMessages(messages, { source: "convertToUIMessages input" })).messages;
  const output: UIMessageV5[] = [];
  let current: { message: UIMessageV5; sources: AgentMessage[] } | undefined;
  const finish = () => {
    if (current) output.push(withMetadata(current.message, current.sources));
    current = undefined;
  };

  for (let index = 0; index < history.length; index++) {
    const message = history[index]!;
    if (message.role === "user" || message.role === "system") {
      finish();
      output.push(
        withMetadata(
          { id: message.id ?? newId(), role: message.role, parts: [{ type: "text", text: message.content }] },
          [message],
        ),
      );
      continue;
    }
    if (message.role === "tool") continue; // placed with its call below
    if (!current) current = { message: { id: message.id ?? newId(), role: "assistant", parts: [] }, sources: [] };
    const parts: UIMessagePart[] = current.message.parts;
    parts.push({ type: "step-start" });
    current.sources.push(message);
    if (message.content.length > 0 || !message.toolCalls?.length)
      parts.push({ type: "text", text: message.content, state: "done" });
    // After repair, a step's results are the tool messages right after it.
    const results = new Map<string, ToolMessage>();
    for (let next = index + 1; next < history.length && history[next]!.role === "tool"; next++) {
      const result = history[next] as ToolMessage;
      results.set(result.toolCallId, result);
    }
    for (const call of message.toolCalls ?? []) {
      const result = results.get(call.id);
      if (!result) continue;
      current.sources.push(result);
      parts.push({
        type: `tool-${call.name}`,
        toolCallId: call.id,
        state: "output-available",
        input: call.arguments,
        output: toolOutput(result.content),
      });
    }
  }
  finish();
  return output;
}

/** Structured results go back as the value they were; anything else as the text it is. */
function toolOutput(content: string): unknown {
  try {
    const value: unknown = JSON.parse(content);
    if (value !== null && typeof value === "object" && JSON.stringify(value) === content) return value;
    if ((typeof value === "number" || typeof value === "boolean") && JSON.stringify(value) === content) return value;
  } catch {
    // not JSON: the text itself
  }
  return content;
}

function withMetadata(message: UIMessageV5, sources: AgentMessage[]): UIMessageV5 {
  const ids = sources.map((source) => source.id);
  const timestamps = sources.map((source) => source.timestamp);
  const agentcore: { ids?: string[]; timestamps?: number[] } = {};
  if (ids.every((id): id is string => id !== undefined)) agentcore.ids = ids;
  if (timestamps.every((time): time is number => time !== undefined)) agentcore.timestamps = timestamps;
  return Object.keys(agentcore).length ? { ...message, metadata: { agentcore } } : message;
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}
