import { base64ByteLength } from "./base64";
import { isBytes, isUrl } from "./content-parts";
import type { ResolvedMessageLimits } from "./message-limits";

/**
 * The first place where raw (not yet parsed) array `content` is certainly over `limits`, read
 * part by part in order: each part's size is a lower bound taken without scanning or decoding it
 * (text: its UTF-16 length; bytes: their length; base64 and `data:` URLs: the bytes their length
 * decodes to; a remote URL: its length), summed as the walk goes. It stops at the first part over
 * `maxPartBytes` or at the part that takes the sum over `maxMessageBytes`, so a later part is never
 * read and nothing large is validated or copied before the refusal. Undefined when no bound is
 * passed (the exact check, `contentLimitIssues`, runs after parsing).
 */
export function contentSizeBoundIssue(
  content: unknown,
  limits: ResolvedMessageLimits,
): { path: string; message: string } | undefined {
  if (!Array.isArray(content)) return undefined;
  if (limits.maxPartBytes === Number.POSITIVE_INFINITY && limits.maxMessageBytes === Number.POSITIVE_INFINITY)
    return undefined;
  let total = 0;
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    if (typeof part !== "object" || part === null) continue;
    const { field, bytes } = partLowerBound(part as Record<string, unknown>);
    if (bytes > limits.maxPartBytes) {
      return {
        path: `content.${index}.${field}`,
        message: `is ${field === "text" ? "at least " : ""}${bytes} bytes, over the part limit of ${limits.maxPartBytes} bytes (maxPartBytes)`,
      };
    }
    total += bytes;
    if (total > limits.maxMessageBytes) {
      return {
        path: "content",
        message: `is at least ${total} bytes by part ${index}, over the message limit of ${limits.maxMessageBytes} bytes (maxMessageBytes)`,
      };
    }
  }
  return undefined;
}

function partLowerBound(part: Record<string, unknown>): { field: string; bytes: number } {
  switch (part.type) {
    case "image":
      return { field: "image", bytes: dataLowerBound(part.image) };
    case "file":
      return { field: "data", bytes: dataLowerBound(part.data) };
    default:
      return { field: "text", bytes: typeof part.text === "string" ? part.text.length : 0 };
  }
}

/** What `dataContentBytes` gives for valid content, from lengths alone; 0 for what is not data (the schema names it). */
function dataLowerBound(value: unknown): number {
  if (isBytes(value) || value instanceof ArrayBuffer) return value.byteLength;
  const text = isUrl(value) ? value.href : value;
  if (typeof text !== "string") return 0;
  if (/^data:/i.test(text)) {
    const comma = text.indexOf(",");
    return comma === -1 ? 0 : base64ByteLength(text.slice(comma + 1));
  }
  if (/^https?:/i.test(text)) return text.length;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return 0;
  return base64ByteLength(text);
}
