import type { AgentMessage } from "../messages/agent-message";
import type { FilePart, ImagePart, UserContentPart } from "../messages/content-parts";
import { isInlineData } from "../messages/data-content";
import type { LanguageModel } from "../models/language-model";

/**
 * The messages of a call as the model can take them: each image or file part of a user message
 * that the model does not take (its `supportsPart`) is sent as a text placeholder naming it, so a
 * part stored earlier (or given in a stateless history) never makes a run fail. Only the call's
 * copy changes: the stored message keeps its part. The same array when nothing changed.
 */
export async function sendableMessages(model: LanguageModel, messages: AgentMessage[]): Promise<AgentMessage[]> {
  if (model.supportsPart === undefined) return messages;
  let sendable: AgentMessage[] | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    let content: UserContentPart[] | undefined;
    for (const [partIndex, part] of message.content.entries()) {
      if (part.type === "text" || (await model.supportsPart(part))) continue;
      content ??= [...message.content];
      content[partIndex] = { type: "text", text: partNotSentText(part, model) };
    }
    if (content === undefined) continue;
    sendable ??= [...messages];
    sendable[index] = { ...message, content };
  }
  return sendable ?? messages;
}

/** E.g. `[file report.pdf (application/pdf, given by URL) from the user: not sent, openai/gpt-4o does not take it]`. */
function partNotSentText(part: ImagePart | FilePart, model: LanguageModel): string {
  const name = part.type === "file" && part.filename !== undefined ? ` ${part.filename}` : "";
  const mediaType = part.type === "image" ? (part.mediaType ?? "image") : part.mediaType;
  const byUrl = isInlineData(part.type === "image" ? part.image : part.data) ? "" : ", given by URL";
  return `[${part.type}${name} (${mediaType}${byUrl}) from the user: not sent, ${model.provider}/${model.modelId} does not take it]`;
}
