// What the inspector's JSON API sends for stored records: message text bounded, binary parts
// replaced by a reference to the part endpoint (never their bytes), remote URLs as text only.
import type { AgentMessage } from "../messages/agent-message";
import type { ContentPart, DataContent } from "../messages/content-parts";
import { isBytes, isUrl } from "../messages/content-parts";
import { dataContentBase64, dataContentBytes, isRemoteUrl } from "../messages/data-content";
import { decodeBase64 } from "../messages/base64";
import { imageMediaType } from "../messages/image-info";

/** Characters of one text shown, at most (the rest is counted, not sent). */
export const MAX_VIEW_TEXT = 100_000;

/** A part as the page shows it. */
export type PartView =
  | { type: "text"; text: string; truncated?: number }
  | { type: "reasoning"; text: string; truncated?: number }
  | { type: "image" | "file"; mediaType: string; bytes: number; filename?: string; part?: number; url?: string };

/** A message as the page shows it. */
export interface MessageView {
  index: number;
  id?: string;
  role: AgentMessage["role"];
  timestamp?: number;
  parts: PartView[];
  /** `askedApproval`: the call needed the user's approval; without a result it still awaits it (docs/approvals.md). */
  toolCalls?: Array<{ id: string; name: string; arguments: string; truncated?: number; askedApproval?: true }>;
  toolCallId?: string;
  name?: string;
}

/** The text shown for `text`, and how many characters were left out. */
function bounded(text: string): { text: string; truncated?: number } {
  return text.length <= MAX_VIEW_TEXT
    ? { text }
    : { text: text.slice(0, MAX_VIEW_TEXT), truncated: text.length - MAX_VIEW_TEXT };
}

function partView(part: ContentPart, index: number): PartView {
  switch (part.type) {
    case "text":
      return { type: "text", ...bounded(part.text) };
    case "reasoning":
      return { type: "reasoning", ...bounded(part.text) };
    case "image":
    case "file": {
      const data: DataContent = part.type === "image" ? part.image : part.data;
      const mediaType = (part.type === "image" ? imageMediaType(part) : part.mediaType) ?? "application/octet-stream";
      const filename = part.type === "file" && part.filename ? { filename: part.filename } : {};
      if (isRemoteUrl(data)) {
        // Shown as text: the page never loads a remote URL (its CSP would refuse it anyway).
        return { type: part.type, mediaType, bytes: 0, url: isUrl(data) ? data.href : String(data), ...filename };
      }
      return { type: part.type, mediaType, bytes: safeBytes(data), part: index, ...filename };
    }
  }
}

function safeBytes(data: DataContent): number {
  try {
    return dataContentBytes(data);
  } catch {
    return 0;
  }
}

/** A stored message as the page shows it. */
export function messageView(message: AgentMessage, index: number): MessageView {
  const content = message.content;
  const parts: PartView[] =
    typeof content === "string"
      ? [{ type: "text", ...bounded(content) }]
      : content.map((part, at) => partView(part, at));
  return {
    index,
    ...(message.id === undefined ? {} : { id: message.id }),
    role: message.role,
    ...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
    parts,
    ...(message.role === "assistant" && message.toolCalls?.length
      ? {
          toolCalls: message.toolCalls.map((call) => {
            const shown = bounded(JSON.stringify(call.arguments ?? {}, null, 2));
            return {
              id: call.id,
              name: call.name,
              arguments: shown.text,
              ...(shown.truncated ? { truncated: shown.truncated } : {}),
              ...(call.approval === undefined ? {} : { askedApproval: true as const }),
            };
          }),
        }
      : {}),
    ...(message.role === "tool" ? { toolCallId: message.toolCallId, name: message.name } : {}),
  };
}

/** Media types the page may show inline: raster images (never SVG, which can hold script). */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The bytes of a message's binary part, with how to serve them; undefined when it has none there. */
export function partBytes(
  message: AgentMessage,
  partIndex: number,
): { bytes: Uint8Array; mediaType: string; inline: boolean; filename?: string } | undefined {
  if (typeof message.content === "string") return undefined;
  const part = message.content[partIndex];
  if (!part || (part.type !== "image" && part.type !== "file")) return undefined;
  const data = part.type === "image" ? part.image : part.data;
  if (isRemoteUrl(data)) return undefined;
  const mediaType = (part.type === "image" ? imageMediaType(part) : part.mediaType) ?? "application/octet-stream";
  let bytes: Uint8Array;
  if (isBytes(data)) bytes = data;
  else {
    const base64 = dataContentBase64(data);
    if (base64 === undefined) return undefined;
    bytes = decodeBase64(base64);
  }
  const inline = INLINE_TYPES.has(mediaType.toLowerCase());
  return {
    bytes,
    mediaType: inline ? mediaType.toLowerCase() : "application/octet-stream",
    inline,
    ...(part.type === "file" && part.filename ? { filename: part.filename } : {}),
  };
}
