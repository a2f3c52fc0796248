import type { AgentMessage } from "../messages/agent-message";
import { describeContent } from "../messages/content-text";

/** Characters kept of each part of the digest. */
const LIMITS = { user: 4000, assistant: 4000, arguments: 300, result: 600 };

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}… [${flat.length - max} more characters]`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * The summariser's input for a stretch of history: one line per message, tool calls as
 * `name(arguments)` and tool results clipped, so a turn with large tool output costs little.
 * Images and files appear as placeholders (`describeContent`): their bytes are never sent again.
 */
export function summaryDigest(messages: readonly AgentMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") lines.push(`User: ${clip(describeContent(message.content), LIMITS.user)}`);
    else if (message.role === "system") lines.push(`System note: ${clip(message.content, LIMITS.user)}`);
    else if (message.role === "assistant") {
      const text = describeContent(message.content);
      if (text.trim()) lines.push(`Assistant: ${clip(text, LIMITS.assistant)}`);
      for (const call of message.toolCalls ?? [])
        lines.push(`Assistant called ${call.name}(${clip(json(call.arguments), LIMITS.arguments)})`);
    } else {
      lines.push(`Tool ${message.name} returned: ${clip(describeContent(message.content), LIMITS.result)}`);
    }
  }
  return lines.join("\n");
}
