import type { AgentMessage, ToolMessage } from "../messages/agent-message";
import type { ToolContentPart } from "../messages/content-parts";

/** Tool results longer than this many characters reach the model cut. @default 20000 */
export const DEFAULT_MAX_TOOL_RESULT_LENGTH = 20_000;

const cutCache = new WeakMap<ToolMessage, { maxLength: number; message: ToolMessage }>();

/**
 * The version of a message the model receives: a tool result whose text is longer than
 * `maxLength` characters keeps its first two thirds and last third of the allowance, with a marker
 * in between that says how much was left out. A result given as parts has its text parts cut, each
 * to its share of the allowance (in proportion to its length); images and files are never cut
 * (they are counted as tokens, not characters). The stored message is never changed; the cut copy
 * is cached per object so its token count is cached too. Other messages come back as they are.
 */
export function cutToolResult(message: AgentMessage, maxLength: number): AgentMessage {
  if (message.role !== "tool" || !Number.isFinite(maxLength)) return message;
  const length = textLength(message.content);
  if (length <= maxLength) return message;
  const cached = cutCache.get(message);
  if (cached && cached.maxLength === maxLength) return cached.message;
  const content =
    typeof message.content === "string"
      ? cutText(message.content, maxLength)
      : message.content.map((part): ToolContentPart => {
          if (part.type !== "text" || part.text.length === 0) return part;
          return { ...part, text: cutText(part.text, Math.floor((maxLength * part.text.length) / length)) };
        });
  const cut: ToolMessage = { ...message, content };
  cutCache.set(message, { maxLength, message: cut });
  return cut;
}

function textLength(content: ToolMessage["content"]): number {
  if (typeof content === "string") return content.length;
  let length = 0;
  for (const part of content) if (part.type === "text") length += part.text.length;
  return length;
}

function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const head = Math.ceil((maxLength * 2) / 3);
  const tail = Math.max(0, maxLength - head);
  const omitted = text.length - head - tail;
  const marker = `\n[agentcore: tool result cut, ${omitted} of ${text.length} characters left out]\n`;
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(-tail) : ""}`;
}
