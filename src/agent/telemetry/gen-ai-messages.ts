import type { AgentMessage, ToolCall } from "../../messages/agent-message";
import type { FinishReason } from "../../models/language-model";

/**
 * A message part as the OpenTelemetry GenAI semantic conventions record it in
 * `gen_ai.input.messages`, `gen_ai.output.messages` and `gen_ai.system_instructions` (their JSON
 * schemas: `TextPart`, `ToolCallRequestPart`, `ToolCallResponsePart`, `ReasoningPart`, `BlobPart`,
 * `UriPart`; any other part keeps its `type` as a `GenericPart`).
 */
export type GenAIPart =
  | { type: "text"; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string; response: unknown }
  | { type: "reasoning"; content: string }
  | { type: "blob"; modality: string; mime_type?: string; content: string }
  | { type: "uri"; modality: string; mime_type?: string; uri: string }
  | { type: string };

/** A message of `gen_ai.input.messages` / `gen_ai.output.messages` (`finish_reason` on output messages). */
export interface GenAIMessage {
  role: string;
  parts: GenAIPart[];
  finish_reason?: string;
}

/** agentcore's finish reasons as the conventions spell them (`FinishReason` of the output messages' schema). */
const FINISH_REASONS: Record<FinishReason, string> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_call",
  "content-filter": "content_filter",
  error: "error",
  other: "other",
};

export function genAIFinishReason(reason: FinishReason | string): string {
  return Object.hasOwn(FINISH_REASONS, reason) ? FINISH_REASONS[reason as FinishReason] : reason;
}

/** `gen_ai.input.messages`: the messages sent, in order, as JSON. */
export function genAIInputMessages(messages: readonly AgentMessage[]): string {
  return JSON.stringify(messages.map(toGenAIMessage));
}

/** `gen_ai.output.messages`: the model's one answer (its text, reasoning and tool calls) with its finish reason. */
export function genAIOutputMessages(
  answer: { content: unknown; toolCalls?: readonly ToolCall[] },
  finishReason: FinishReason | string,
): string {
  const message: GenAIMessage = {
    ...toGenAIMessage({ role: "assistant", content: answer.content, toolCalls: answer.toolCalls }),
    finish_reason: genAIFinishReason(finishReason),
  };
  return JSON.stringify([message]);
}

/** `gen_ai.system_instructions`: the system prompt as parts. */
export function genAISystemInstructions(system: string): string {
  return JSON.stringify(toGenAIParts(system));
}

function toGenAIMessage(message: {
  role: string;
  content: unknown;
  toolCalls?: readonly ToolCall[] | undefined;
  toolCallId?: string;
}): GenAIMessage {
  if (message.role === "tool") {
    const response = typeof message.content === "string" ? message.content : toGenAIParts(message.content);
    return { role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId ?? "", response }] };
  }
  const parts = toGenAIParts(message.content);
  for (const toolCall of message.toolCalls ?? [])
    parts.push({ type: "tool_call", id: toolCall.id, name: toolCall.name, arguments: toolCall.arguments });
  return { role: message.role, parts };
}

/**
 * A message's `content` as parts: a string is one text part (none when empty); an array of parts
 * (the AI SDK's shapes) maps part by part — `text` to text, `reasoning` to reasoning, `image` and
 * `file` to a `uri` part when they are a URL, else to a `blob` part with the bytes in base64, each
 * with its modality and `mime_type`. A part of another type keeps its type alone.
 */
export function toGenAIParts(content: unknown): GenAIPart[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  const parts: GenAIPart[] = [];
  for (const part of content as unknown[]) {
    if (part === null || typeof part !== "object") continue;
    const { type } = part as { type?: unknown };
    const record = part as Record<string, unknown>;
    if (type === "text" || type === "reasoning") {
      if (typeof record.text === "string") parts.push({ type, content: record.text });
    } else if (type === "image" || type === "file") {
      const mimeType = typeof record.mediaType === "string" ? record.mediaType : undefined;
      parts.push(mediaPart(type === "image" ? record.image : record.data, modalityOf(type, mimeType), mimeType));
    } else if (typeof type === "string") {
      parts.push({ type });
    }
  }
  return parts;
}

function modalityOf(type: "image" | "file", mimeType: string | undefined): string {
  const family = mimeType?.split("/")[0];
  if (family === "image" || family === "audio" || family === "video") return family;
  return type === "image" ? "image" : "document";
}

/** An image's or a file's data: bytes, base64, a `data:` URL (bytes too) or a URL to fetch. */
function mediaPart(data: unknown, modality: string, mimeType: string | undefined): GenAIPart {
  const mime = (value: string | undefined) => (value === undefined ? {} : { mime_type: value });
  if (data instanceof Uint8Array) return { type: "blob", modality, ...mime(mimeType), content: base64(data) };
  const text = data instanceof URL ? data.href : typeof data === "string" ? data : "";
  const dataUrl = /^data:([^;,]*)(;[^,]*)?,/i.exec(text);
  if (dataUrl) {
    const isBase64 = /;base64/i.test(dataUrl[2] ?? "");
    const payload = text.slice(dataUrl[0].length);
    return {
      type: "blob",
      modality,
      ...mime(mimeType ?? (dataUrl[1] || undefined)),
      content: isBase64 ? payload : base64(new TextEncoder().encode(percentDecoded(payload))),
    };
  }
  if (data instanceof URL || /^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return { type: "uri", modality, ...mime(mimeType), uri: text };
  return { type: "blob", modality, ...mime(mimeType), content: text };
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Base64 of bytes without `Buffer`, so the edge build has it too. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}
