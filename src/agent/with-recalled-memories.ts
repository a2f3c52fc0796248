import type { AgentMessage, UserMessage } from "../messages/agent-message";

/** A model call's messages with the recalled memories block in the current turn's user message. */
export interface RecalledInMessages {
  messages: AgentMessage[];
  /** Index in `messages` of the user message that carries the block. */
  userIndex: number;
}

/**
 * The window as the model receives it with the run's recalled memories (`block`, rendered by
 * `renderRecalledMemories`): a copy of the current turn's user message gets the block as its
 * first text part, before the user's own content (the question comes last). The block changes
 * with every input, so it travels with that input: the system prompt and the history before it
 * stay the same prefix from turn to turn, and stay cached. Only the call carries the copy; the
 * window, the log and the store keep the message as it is, so a later turn sends it without the
 * block. The copy has no id: it is not the stored message (token counts cached by id stay the
 * stored message's).
 *
 * Returns undefined when the block is empty or `userMessage` (the user message this run added)
 * is not in the window (a run that only answers tool approvals has none): the block then goes
 * to the system prompt.
 */
export function withRecalledMemories(
  window: readonly AgentMessage[],
  userMessage: AgentMessage | undefined,
  block: string,
): RecalledInMessages | undefined {
  if (block === "" || userMessage?.role !== "user") return undefined;
  const userIndex = window.findLastIndex(
    (message) => message === userMessage || (userMessage.id !== undefined && message.id === userMessage.id),
  );
  const current = window[userIndex];
  if (current?.role !== "user") return undefined;
  const own =
    typeof current.content === "string" ? [{ type: "text" as const, text: current.content }] : current.content;
  const carrying: UserMessage = {
    role: "user",
    // An empty text part is refused by some providers (Anthropic): the block alone then.
    content: [{ type: "text", text: block }, ...own.filter((part) => part.type !== "text" || part.text !== "")],
    ...(current.timestamp === undefined ? {} : { timestamp: current.timestamp }),
  };
  const messages = [...window];
  messages[userIndex] = carrying;
  return { messages, userIndex };
}
