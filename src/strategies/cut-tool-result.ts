import type { AgentMessage, ToolMessage } from "../messages/agent-message";

/** Tool results longer than this many characters reach the model cut. @default 20000 */
export const DEFAULT_MAX_TOOL_RESULT_LENGTH = 20_000;

const cutCache = new WeakMap<ToolMessage, { maxLength: number; message: ToolMessage }>();

/**
 * The version of a message the model receives: a tool result longer than `maxLength` characters
 * keeps its first two thirds and last third of the allowance, with a marker in between that
 * says how much was left out. The stored message is never changed; the cut copy is cached per
 * object so its token count is cached too. Other messages, and tool results given as parts (their
 * images are counted, not cut), come back as they are.
 */
export function cutToolResult(message: AgentMessage, maxLength: number): AgentMessage {
  if (
    message.role !== "tool" ||
    typeof message.content !== "string" ||
    !Number.isFinite(maxLength) ||
    message.content.length <= maxLength
  )
    return message;
  const cached = cutCache.get(message);
  if (cached && cached.maxLength === maxLength) return cached.message;
  const content = message.content;
  const head = Math.ceil((maxLength * 2) / 3);
  const tail = Math.max(0, maxLength - head);
  const omitted = content.length - head - tail;
  const marker = `\n[agentcore: tool result cut, ${omitted} of ${content.length} characters left out]\n`;
  const cut: ToolMessage = {
    ...message,
    content: `${content.slice(0, head)}${marker}${tail > 0 ? content.slice(-tail) : ""}`,
  };
  cutCache.set(message, { maxLength, message: cut });
  return cut;
}
