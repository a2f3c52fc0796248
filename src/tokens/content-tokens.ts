import type { MessageContent } from "../messages/content-parts";
import { dataContentBytes } from "../messages/data-content";
import { utf8ByteLength } from "../messages/utf8-byte-length";
import { filePartTokens } from "./file-tokens";
import { type ImageTokens, imagePartTokens } from "./image-tokens";
import type { EncodingName } from "./encoding";
import { countTextTokens } from "./tokenizer";

/**
 * The tokens of a message's content, split in what the tokenizer counts (text, reasoning) and what
 * a provider's rule counts (images, files; under each image rule).
 */
export interface ContentTokens {
  text: number;
  media: ImageTokens;
}

/** Text tokens of content, and the media tokens of its images and files. */
export function contentTokens(content: MessageContent, encoding: EncodingName): ContentTokens {
  if (typeof content === "string") return { text: countTextTokens(content, encoding), media: NO_MEDIA };
  let text = 0;
  const media = { openai: 0, anthropic: 0 };
  for (const part of content) {
    if (part.type === "text" || part.type === "reasoning") text += countTextTokens(part.text, encoding);
    else addMedia(media, part);
  }
  return { text, media };
}

/** The bound of `contentTokens` without a tokenizer: UTF-8 bytes of the text (a token is at least a byte). */
export function contentTokenBound(content: MessageContent): ContentTokens {
  if (typeof content === "string") return { text: utf8ByteLength(content), media: NO_MEDIA };
  let text = 0;
  const media = { openai: 0, anthropic: 0 };
  for (const part of content) {
    if (part.type === "text" || part.type === "reasoning") text += utf8ByteLength(part.text);
    else addMedia(media, part);
  }
  return { text, media };
}

const NO_MEDIA: ImageTokens = Object.freeze({ openai: 0, anthropic: 0 });

function addMedia(media: { openai: number; anthropic: number }, part: MessageContent[number] & object): void {
  if (part.type === "image") {
    const tokens = imagePartTokens(part);
    media.openai += tokens.openai;
    media.anthropic += tokens.anthropic;
  } else if (part.type === "file") {
    const tokens = filePartTokens(part);
    media.openai += tokens;
    media.anthropic += tokens;
  }
}

/**
 * A short fingerprint of parts content for the by-id count cache (a stored message never changes
 * under its id; this checks it cheaply): each part's type and size.
 */
export function partsFingerprint(content: Exclude<MessageContent, string>): string {
  let fingerprint = "";
  for (const part of content) {
    const size =
      part.type === "image"
        ? dataContentBytes(part.image)
        : part.type === "file"
          ? dataContentBytes(part.data)
          : part.text.length;
    fingerprint += `${part.type[0]}${size},`;
  }
  return fingerprint;
}
