import type OpenAI from "openai";
import { InvalidMessageError } from "../../errors/invalid-message-error";
import type { AgentMessage } from "../../messages/agent-message";
import type { FilePart, ImagePart, UserContentPart } from "../../messages/content-parts";
import { dataContentBase64, isInlineData } from "../../messages/data-content";
import type { ToolChoice, ToolDefinition } from "../language-model";
import { fileNotSentText, imageUrl } from "../wire-content";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

/**
 * Maps the system prompt and the conversation to Chat Completions messages: the system prompt
 * first as a `system` message, assistant `toolCalls` as `tool_calls` (arguments as JSON text),
 * `tool` messages with their `tool_call_id`.
 *
 * Parts (docs/providers.md, "Images, files and reasoning"): user text, image (`image_url`: a
 * remote URL as is, anything else as a `data:` URL) and PDF file (`file` with `file_data`) parts;
 * other files and remote file URLs are an `InvalidMessageError` (the API takes neither). Assistant
 * reasoning parts are not sent: Chat Completions has no input for them. A tool message carries
 * text only, so the images (and PDFs) of tool results go in one user message after all the tool
 * messages of that step (each introduced by "Image returned by tool <name> (<id>):"), which keeps
 * every call paired with its result; a tool's file of another type is named in its text, not sent.
 */
export function convertToOpenAIMessages(system: string | undefined, messages: readonly AgentMessage[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  if (system !== undefined && system !== "") result.push({ role: "system", content: system });
  let pendingImages: UserPart[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
        result.push({ role: "system", content: message.content });
        break;
      case "user":
        result.push({
          role: "user",
          content:
            typeof message.content === "string"
              ? message.content
              : message.content.map((part, partIndex) => userPart(part, index, partIndex)),
        });
        break;
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        const content = textOf(message.content);
        if (toolCalls.length === 0) {
          result.push({ role: "assistant", content });
        } else {
          result.push({
            role: "assistant",
            content: content === "" ? null : content,
            tool_calls: toolCalls.map((toolCall) => ({
              id: toolCall.id,
              type: "function" as const,
              function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments) },
            })),
          });
        }
        break;
      }
      case "tool": {
        const parts = typeof message.content === "string" ? [] : message.content;
        // Files Chat Completions cannot take (anything but an inline PDF) are named in the tool's text.
        const attachments = parts.flatMap((part) => (part.type === "text" ? [] : [toolAttachment(part)]));
        const notes = attachments.flatMap((attachment) => (typeof attachment === "string" ? [attachment] : []));
        const text = [textOf(message.content), ...notes].filter((piece) => piece !== "").join("\n");
        result.push({ role: "tool", tool_call_id: message.toolCallId, content: text });
        const sent = attachments.filter((attachment): attachment is UserPart => typeof attachment !== "string");
        if (sent.length > 0) {
          pendingImages.push(
            { type: "text", text: `${sentLabel(sent)} returned by tool ${message.name} (${message.toolCallId}):` },
            ...sent,
          );
        }
        if (messages[index + 1]?.role !== "tool") flushImages();
        break;
      }
    }
  });
  return result;

  function flushImages(): void {
    if (pendingImages.length === 0) return;
    result.push({ role: "user", content: pendingImages });
    pendingImages = [];
  }
}

function textOf(content: AgentMessage["content"]): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of content) if (part.type === "text") text += part.text;
  return text;
}

/** A tool result's image or file as the user part that carries it, or the note that replaces it. */
function toolAttachment(part: ImagePart | FilePart): UserPart | string {
  if (part.type === "image") return imagePart(part);
  const base64 = dataContentBase64(part.data);
  if (part.mediaType !== "application/pdf" || base64 === undefined)
    return fileNotSentText(part, "OpenAI Chat Completions");
  return pdfPart(part, base64);
}

function sentLabel(parts: readonly UserPart[]): string {
  if (parts.every((part) => part.type === "image_url")) return "Image";
  return parts.every((part) => part.type === "file") ? "File" : "Content";
}

function pdfPart(part: FilePart, base64: string): UserPart {
  return {
    type: "file",
    file: { filename: part.filename ?? "document.pdf", file_data: `data:application/pdf;base64,${base64}` },
  };
}

function imagePart(part: ImagePart): UserPart {
  return { type: "image_url", image_url: { url: imageUrl(part) } };
}

function userPart(part: UserContentPart, index: number, partIndex: number): UserPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return imagePart(part);
    case "file": {
      const problem =
        part.mediaType !== "application/pdf"
          ? `file parts of type ${part.mediaType} are not supported by OpenAI Chat Completions (PDF only)`
          : !openAIChatTakesPart(part)
            ? "a file part given by remote URL is not supported by OpenAI Chat Completions (give its bytes or base64)"
            : undefined;
      if (problem !== undefined) {
        throw new InvalidMessageError({ issues: [{ index, path: `content.${partIndex}`, message: problem }] });
      }
      return pdfPart(part, dataContentBase64(part.data)!);
    }
  }
}

/**
 * Whether Chat Completions takes a user message's part: an image given inline or by remote URL
 * (`image_url`), a PDF given inline (`file_data`); no other file, no remote file URL.
 */
export function openAIChatTakesPart(part: ImagePart | FilePart): boolean {
  return part.type === "image" || (part.mediaType === "application/pdf" && isInlineData(part.data));
}

/** Tools as Chat Completions functions; `undefined` when there are none (an empty list is an API error). */
/** A call's tool choice in Chat Completions' `tool_choice` (one tool: `{ type: "function", function: { name } }`). */
export function convertToOpenAIToolChoice(choice: ToolChoice): OpenAI.Chat.Completions.ChatCompletionToolChoiceOption {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.toolName } };
}

export function convertToOpenAITools(tools: readonly ToolDefinition[]): ChatTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((definition) => ({
    type: "function" as const,
    function: {
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      parameters: definition.parameters,
    },
  }));
}
