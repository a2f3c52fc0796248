import { InvalidMessageError } from "../errors/invalid-message-error";
import type { MessageContent } from "../messages/content-parts";

/**
 * The text of a message's content for a provider adapter that sends text only: a string as is,
 * text parts joined. An image, file or reasoning part is an `InvalidMessageError` naming the
 * message and part, never dropped without a word.
 */
export function requireTextContent(content: MessageContent, provider: string, index: number): string {
  if (typeof content === "string") return content;
  let text = "";
  content.forEach((part, partIndex) => {
    if (part.type === "text") {
      text += part.text;
      return;
    }
    throw new InvalidMessageError({
      issues: [
        {
          index,
          path: `content.${partIndex}`,
          message: `${part.type} parts are not yet supported by the ${provider} provider adapter`,
        },
      ],
    });
  });
  return text;
}
