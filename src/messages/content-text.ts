import type { ContentPart, MessageContent } from "./content-parts";

/**
 * The text of a message's content: a string as is; of parts, the text parts joined (reasoning,
 * images and files left out). What code that needs text (token estimates of text, recall queries,
 * fact and memory tools) reads instead of `message.content`.
 */
export function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of content) if (part.type === "text") text += part.text;
  return text;
}

/**
 * The content as text for a reader who cannot see attachments (a summariser, a memory provider, a
 * terminal): text parts as is, each image or file as a short placeholder (`[image: image/png]`,
 * `[file: report.pdf, application/pdf]`), reasoning left out. Never the bytes.
 */
export function describeContent(content: MessageContent): string {
  if (typeof content === "string") return content;
  const pieces: string[] = [];
  for (const part of content) {
    const piece = describePart(part);
    if (piece !== undefined) pieces.push(piece);
  }
  return pieces.join("\n");
}

function describePart(part: ContentPart): string | undefined {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
      return `[image${part.mediaType === undefined ? "" : `: ${part.mediaType}`}]`;
    case "file":
      return `[file: ${part.filename === undefined ? "" : `${part.filename}, `}${part.mediaType}]`;
    default:
      return undefined;
  }
}

/** True when `content` holds anything besides text (an image, a file, reasoning). */
export function hasNonTextParts(content: MessageContent): boolean {
  return typeof content !== "string" && content.some((part) => part.type !== "text");
}
