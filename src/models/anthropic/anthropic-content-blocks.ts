import type Anthropic from "@anthropic-ai/sdk";
import { InvalidMessageError } from "../../errors/invalid-message-error";
import type {
  AssistantContentPart,
  FilePart,
  ImagePart,
  ReasoningPart,
  ToolContentPart,
  UserContentPart,
} from "../../messages/content-parts";
import { decodeBase64 } from "../../messages/base64";
import { isInlineData } from "../../messages/data-content";
import { fileNotSentText, inlineOrUrl, wireImageMediaType } from "../wire-content";

type ContentBlock = Anthropic.Messages.ContentBlockParam;
type ImageBlock = Anthropic.Messages.ImageBlockParam;
type TextBlock = Anthropic.Messages.TextBlockParam;
type DocumentBlock = Anthropic.Messages.DocumentBlockParam;

/**
 * Content parts as Messages API blocks (docs/providers.md, "Images, files and reasoning"). Images
 * as `image` blocks (base64 or url source); PDFs as `document` blocks (base64 or url);
 * `text/plain` files as `document` blocks with a text source; other files are an
 * `InvalidMessageError`. Reasoning goes back as the API gave it: `thinking` with its signature
 * (`providerOptions.anthropic.signature`) or `redacted_thinking`
 * (`providerOptions.anthropic.redactedData`), first in the assistant message; reasoning without
 * either (from another provider) cannot be verified by the API and is dropped. Empty text is left
 * out (the API rejects empty text blocks).
 */

/** Anthropic's fields in a reasoning part's `providerOptions`. */
export interface AnthropicReasoningOptions {
  signature?: string;
  redactedData?: string;
}

export function userBlocks(content: string | readonly UserContentPart[], index: number): ContentBlock[] {
  if (typeof content === "string") return textBlocks(content);
  return content.flatMap((part, partIndex): ContentBlock[] => {
    switch (part.type) {
      case "text":
        return textBlocks(part.text);
      case "image":
        return [imageBlock(part)];
      case "file":
        return [documentBlock(part, index, partIndex)];
    }
  });
}

/** Reasoning blocks first, then text: the order the API requires of a turn that thought. */
export function assistantBlocks(content: string | readonly AssistantContentPart[]): ContentBlock[] {
  if (typeof content === "string") return textBlocks(content);
  const reasoning = content.flatMap((part) => (part.type === "reasoning" ? reasoningBlocks(part) : []));
  const text = content.flatMap((part) => (part.type === "text" ? textBlocks(part.text) : []));
  return [...reasoning, ...text];
}

/**
 * A tool result's content: a string as is, parts as text, image and document blocks (PDF and
 * text/plain files, as in a user message); a file Anthropic cannot take (audio) as a text note.
 */
export function toolResultContent(
  content: string | readonly ToolContentPart[],
): string | (TextBlock | ImageBlock | DocumentBlock)[] {
  if (typeof content === "string") return content;
  return content.flatMap((part): (TextBlock | ImageBlock | DocumentBlock)[] => {
    switch (part.type) {
      case "text":
        return textBlocks(part.text);
      case "image":
        return [imageBlock(part)];
      case "file": {
        const block = documentSource(part);
        return block === undefined ? textBlocks(fileNotSentText(part, "Anthropic")) : [block];
      }
    }
  });
}

function textBlocks(text: string): TextBlock[] {
  return text === "" ? [] : [{ type: "text", text }];
}

function imageBlock(part: ImagePart): ImageBlock {
  const source = inlineOrUrl(part.image);
  return {
    type: "image",
    source:
      "url" in source
        ? { type: "url", url: source.url }
        : {
            type: "base64",
            media_type: wireImageMediaType(part) as "image/png",
            data: source.base64,
          },
  };
}

function documentBlock(part: FilePart, index: number, partIndex: number): ContentBlock {
  const block = documentSource(part);
  if (block !== undefined) return block;
  const source = inlineOrUrl(part.data);
  throw new InvalidMessageError({
    issues: [
      {
        index,
        path: `content.${partIndex}`,
        message:
          "url" in source && part.mediaType.startsWith("text/plain")
            ? "a text/plain file part given by remote URL is not supported by Anthropic (give its bytes or base64)"
            : `file parts of type ${part.mediaType} are not supported by Anthropic (PDF and text/plain only)`,
      },
    ],
  });
}

/**
 * Whether the Messages API takes a user message's part: an image or a PDF given inline or by
 * remote URL, a `text/plain` file given inline (a text source has no URL form); no other file.
 */
export function anthropicTakesPart(part: ImagePart | FilePart): boolean {
  if (part.type === "image" || part.mediaType === "application/pdf") return true;
  return part.mediaType.startsWith("text/plain") && isInlineData(part.data);
}

/** A PDF or inline text/plain file as a `document` block; undefined for what Anthropic cannot take. */
function documentSource(part: FilePart): DocumentBlock | undefined {
  const source = inlineOrUrl(part.data);
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.mediaType === "application/pdf") {
    return {
      type: "document",
      source:
        "url" in source
          ? { type: "url", url: source.url }
          : { type: "base64", media_type: "application/pdf", data: source.base64 },
      ...title,
    };
  }
  if (part.mediaType.startsWith("text/plain") && "base64" in source) {
    const data = new TextDecoder().decode(decodeBase64(source.base64));
    return { type: "document", source: { type: "text", media_type: "text/plain", data }, ...title };
  }
  return undefined;
}

function reasoningBlocks(part: ReasoningPart): ContentBlock[] {
  const options = part.providerOptions?.anthropic as AnthropicReasoningOptions | undefined;
  if (typeof options?.signature === "string") {
    return [{ type: "thinking", thinking: part.text, signature: options.signature }];
  }
  if (typeof options?.redactedData === "string") return [{ type: "redacted_thinking", data: options.redactedData }];
  return [];
}

/** A thinking or redacted_thinking block of a response as a reasoning part, or undefined for any other block. */
export function reasoningPartOf(block: { type: string }): ReasoningPart | undefined {
  if (block.type === "thinking") {
    const { thinking, signature } = block as Anthropic.Messages.ThinkingBlock;
    return { type: "reasoning", text: thinking ?? "", providerOptions: { anthropic: { signature: signature ?? "" } } };
  }
  if (block.type === "redacted_thinking") {
    const { data } = block as Anthropic.Messages.RedactedThinkingBlock;
    return { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: data ?? "" } } };
  }
  return undefined;
}
