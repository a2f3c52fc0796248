// A session's preview (`SessionEntry.preview`): what a sidebar shows under a chat's title.
import type { AgentMessage } from "../messages/agent-message";
import { contentText } from "../messages/content-text";

/** The longest preview, in UTF-16 code units (a surrogate pair is never cut in half). */
export const PREVIEW_LENGTH = 200;

/**
 * The preview of a session whose last messages are `messages`: the text of the last user or
 * assistant message that has text, whitespace collapsed, cut to `PREVIEW_LENGTH`. Undefined when
 * none of them has text (a store then keeps the preview it had).
 */
export function previewOf(messages: readonly AgentMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user" && message.role !== "assistant") continue;
    const text = collapsedPrefix(contentText(message.content));
    if (text === "") continue;
    if (text.length <= PREVIEW_LENGTH) return text;
    const cut = text.charCodeAt(PREVIEW_LENGTH - 1);
    // A high surrogate at the end would leave half a character.
    return text.slice(0, cut >= 0xd800 && cut <= 0xdbff ? PREVIEW_LENGTH - 1 : PREVIEW_LENGTH);
  }
  return undefined;
}

/**
 * The text with whitespace collapsed and trimmed, read only as far as a preview needs: a prefix a
 * few times the preview's length, longer only while collapsing leaves it too short (a long answer
 * costs the same as a short one).
 */
function collapsedPrefix(text: string): string {
  for (let length = PREVIEW_LENGTH * 4; ; length *= 4) {
    const collapsed = text.slice(0, length).replace(/\s+/g, " ").trim();
    if (length >= text.length || collapsed.length > PREVIEW_LENGTH) return collapsed;
  }
}
