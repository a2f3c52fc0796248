import type { DataContent, FilePart, ImagePart } from "../messages/content-parts";
import { isUrl } from "../messages/content-parts";
import { dataContentBase64, dataContentUrl, parseDataUrl } from "../messages/data-content";
import { imageMediaType } from "../messages/image-info";

/**
 * Binary content of image and file parts as provider adapters send it. An image's media type is
 * the part's, else its `data:` URL's, else the one its header shows (PNG, JPEG, GIF, WebP), else
 * `image/jpeg` (as the AI SDK assumes). Remote URLs are passed on, never fetched.
 */

/** The media type of an image part as sent. */
export function wireImageMediaType(part: ImagePart): string {
  return knownImageMediaType(part) ?? "image/jpeg";
}

/**
 * The media type of an image part when the part, its `data:` URL or its header says it;
 * `undefined` otherwise (a remote URL of an unknown type).
 */
export function knownImageMediaType(part: ImagePart): string | undefined {
  return part.mediaType ?? dataUrlMediaType(part.image) ?? imageMediaType(part);
}

/** The media type of a file part as sent: the part's, which is required. */
export function wireFileMediaType(part: FilePart): string {
  return part.mediaType;
}

/** An image as a URL: a remote URL as is, anything else as a base64 `data:` URL. */
export function imageUrl(part: ImagePart): string {
  return dataContentUrl(part.image, wireImageMediaType(part));
}

/** Inline content as `{ base64 }`, or a remote URL as `{ url }`. */
export function inlineOrUrl(value: DataContent): { base64: string } | { url: string } {
  const base64 = dataContentBase64(value);
  if (base64 !== undefined) return { base64 };
  return { url: isUrl(value) ? value.href : (value as string) };
}

function dataUrlMediaType(value: DataContent): string | undefined {
  if (typeof value !== "string" && !isUrl(value)) return undefined;
  const text = isUrl(value) ? value.href : value;
  if (!/^data:/i.test(text)) return undefined;
  const parsed = parseDataUrl(text);
  return "problem" in parsed ? undefined : parsed.mediaType;
}

/**
 * The text sent in place of a tool result's file that `provider` cannot take (an MCP tool's audio
 * to a chat model): the model learns what was returned, the run goes on, the stored part is kept.
 */
export function fileNotSentText(part: FilePart, provider: string): string {
  const name = part.filename === undefined ? "" : ` ${part.filename}`;
  return `[file${name} (${part.mediaType}) returned by the tool: not sent, ${provider} does not accept it here]`;
}
