import type { AgentMessage } from "../../messages/agent-message";
import type { DataContent, ImagePart, ToolContentPart, UserContentPart } from "../../messages/content-parts";
import { isBytes } from "../../messages/content-parts";
import { contentText } from "../../messages/content-text";
import type { ToolDefinition } from "../language-model";
import { inlineOrUrl, knownImageMediaType, wireImageMediaType } from "../wire-content";
import type {
  AISDKCallOptions,
  AISDKFileData,
  AISDKFilePart,
  AISDKPromptMessage,
  AISDKProviderOptions,
  AISDKSpecificationVersion,
} from "./ai-sdk-types";

type ToolResultPart = Extract<AISDKPromptMessage, { role: "tool" }>["content"][number];
type AssistantPart = Extract<AISDKPromptMessage, { role: "assistant" }>["content"][number];
type UserPart = Extract<AISDKPromptMessage, { role: "user" }>["content"][number];

/**
 * Maps the system prompt and the conversation to an AI SDK prompt (the `LanguageModelV2/V3/V4`
 * prompt): the system prompt first as a `system` message, user text as a text part, assistant
 * text and `toolCalls` as text and `tool-call` parts (input as the parsed object), and the tool
 * messages that follow one another as one `tool` message of `tool-result` parts, so each call's
 * result comes right after it.
 *
 * Parts: user text, images and files with their `providerOptions`, images and files as `file`
 * parts (an image's media type as `wire-content.ts` finds it; bytes as bytes, base64 and `data:`
 * URLs as base64, remote URLs as `URL`s; v4 tags them, `{ type: "data" }` or `{ type: "url" }`); assistant
 * reasoning as `reasoning` parts with their `providerOptions` as received (the AI SDK's providers
 * keep signatures there), before the text; a tool result with images as `content` output (text
 * and file parts: v4's `file` with tagged data; v3's `image-data` / `image-url` / `file-data` /
 * `file-url`; v2's `media`, and a file given by remote URL as its URL in text, since v2 has no URL
 * part there).
 */
export function convertToAISDKPrompt(
  system: string | undefined,
  messages: readonly AgentMessage[],
  specificationVersion: AISDKSpecificationVersion = "v3",
): AISDKPromptMessage[] {
  return convertToAISDKPromptParts(system, messages, specificationVersion).prompt;
}

/** A part of a prompt that can carry provider options (a cache breakpoint). */
export type AISDKCacheablePart = { providerOptions?: AISDKProviderOptions };

/**
 * `convertToAISDKPrompt`, and for each message the last part it made that can carry a cache
 * breakpoint (`lastParts[i]` for `messages[i]`): not reasoning (a thinking block takes none), not
 * empty text; `undefined` when it made none. The same blocks the built-in Anthropic adapter marks.
 */
export function convertToAISDKPromptParts(
  system: string | undefined,
  messages: readonly AgentMessage[],
  specificationVersion: AISDKSpecificationVersion = "v3",
): { prompt: AISDKPromptMessage[]; lastParts: (AISDKCacheablePart | undefined)[] } {
  const prompt: AISDKPromptMessage[] = [];
  const lastParts: (AISDKCacheablePart | undefined)[] = [];
  if (system !== undefined && system !== "") prompt.push({ role: "system", content: system });
  let toolResults: ToolResultPart[] | undefined;
  messages.forEach((message, index) => {
    if (message.role !== "tool") toolResults = undefined;
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user": {
        const content =
          typeof message.content === "string"
            ? [{ type: "text" as const, text: message.content }]
            : message.content.map((part) => userPart(part, specificationVersion));
        prompt.push({ role: "user", content });
        lastParts[index] = content.findLast(isCacheable);
        break;
      }
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        const content: AssistantPart[] = [];
        if (typeof message.content !== "string") {
          for (const part of message.content) {
            if (part.type === "reasoning") {
              content.push({
                type: "reasoning",
                text: part.text,
                ...(part.providerOptions ? { providerOptions: part.providerOptions as AISDKProviderOptions } : {}),
              });
            }
          }
        }
        const text = contentText(message.content);
        if (text !== "" || (toolCalls.length === 0 && content.length === 0)) content.push({ type: "text", text });
        for (const toolCall of toolCalls) {
          content.push({
            type: "tool-call",
            toolCallId: toolCall.id,
            toolName: toolCall.name,
            input: toolCall.arguments,
          });
        }
        prompt.push({ role: "assistant", content });
        lastParts[index] = content.findLast(isCacheable);
        break;
      }
      case "tool": {
        const part: ToolResultPart = {
          type: "tool-result",
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: toolOutput(message.content, specificationVersion),
        };
        if (toolResults) {
          toolResults.push(part);
        } else {
          toolResults = [part];
          prompt.push({ role: "tool", content: toolResults });
        }
        lastParts[index] = part;
        break;
      }
    }
  });
  return { prompt, lastParts };
}

/** Whether a part becomes a block that can take a breakpoint (Anthropic leaves out empty text). */
function isCacheable(part: { type: string; text?: string }): boolean {
  return part.type !== "reasoning" && !(part.type === "text" && part.text === "");
}

function userPart(part: UserContentPart, specificationVersion: AISDKSpecificationVersion): UserPart {
  switch (part.type) {
    case "text":
      return {
        type: "text",
        text: part.text,
        ...(part.providerOptions ? { providerOptions: part.providerOptions as AISDKProviderOptions } : {}),
      };
    case "image":
      return filePart(
        part.image,
        imageMediaType(part, specificationVersion),
        undefined,
        part.providerOptions,
        specificationVersion,
      );
    case "file":
      return filePart(part.data, part.mediaType, part.filename, part.providerOptions, specificationVersion);
  }
}

/**
 * An image's media type as sent: v4 takes the top-level `"image"` for an image of unknown type (a
 * remote URL) and lets the provider find it; v2 and v3 need a full one (`image/jpeg` is assumed).
 */
function imageMediaType(part: ImagePart, specificationVersion: AISDKSpecificationVersion): string {
  return specificationVersion === "v4" ? (knownImageMediaType(part) ?? "image") : wireImageMediaType(part);
}

/** A file's data as v2 / v3 take it, or v4's tagged form. */
type AISDKFilePartValue = Uint8Array | string | URL | AISDKFileData;

function filePart(
  data: DataContent,
  mediaType: string,
  filename: string | undefined,
  providerOptions: Record<string, unknown> | undefined,
  specificationVersion: AISDKSpecificationVersion,
): AISDKFilePart {
  const source = isBytes(data) ? undefined : inlineOrUrl(data);
  const value = source === undefined ? (data as Uint8Array) : "url" in source ? new URL(source.url) : source.base64;
  return {
    type: "file",
    data: (specificationVersion !== "v4"
      ? value
      : value instanceof URL
        ? { type: "url", url: value }
        : { type: "data", data: value }) satisfies AISDKFilePartValue as never,
    mediaType,
    ...(filename === undefined ? {} : { filename }),
    ...(providerOptions ? { providerOptions: providerOptions as AISDKProviderOptions } : {}),
  };
}

function toolOutput(
  content: string | readonly ToolContentPart[],
  specificationVersion: AISDKSpecificationVersion,
): ToolResultPart["output"] {
  if (typeof content === "string") return { type: "text", value: content };
  if (!content.some((part) => part.type !== "text")) return { type: "text", value: contentText(content) };
  type Value = { type: "text"; text: string };
  return {
    type: "content",
    value: content.map((part): Value => {
      if (part.type === "text") return { type: "text", text: part.text };
      const isImage = part.type === "image";
      const source = inlineOrUrl(isImage ? part.image : part.data);
      const mediaType = isImage ? imageMediaType(part, specificationVersion) : part.mediaType;
      if (specificationVersion === "v2") {
        return "url" in source
          ? { type: "text", text: source.url }
          : ({ type: "media", data: source.base64, mediaType } as unknown as Value);
      }
      const filename = !isImage && part.filename !== undefined ? { filename: part.filename } : {};
      if (specificationVersion === "v4") {
        const data =
          "url" in source ? { type: "url", url: new URL(source.url) } : { type: "data", data: source.base64 };
        return { type: "file", data, mediaType, ...filename } as unknown as Value;
      }
      if (isImage) {
        return ("url" in source
          ? { type: "image-url", url: source.url }
          : { type: "image-data", data: source.base64, mediaType }) as unknown as Value;
      }
      return ("url" in source
        ? { type: "file-url", url: source.url, mediaType }
        : { type: "file-data", data: source.base64, mediaType, ...filename }) as unknown as Value;
    }),
  };
}

/** Tools as AI SDK function tools with their JSON Schema; `undefined` when there are none. */
export function convertToAISDKTools(tools: readonly ToolDefinition[]): AISDKCallOptions["tools"] {
  if (tools.length === 0) return undefined;
  return tools.map((definition) => ({
    type: "function" as const,
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    inputSchema: definition.parameters,
  }));
}
