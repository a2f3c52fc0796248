import { contentText } from "./content-text";
import { isBytes, isUrl, partTypesByRole, type ToolContentPart } from "./content-parts";
import { contentLimitIssues, contentSchema } from "./content-schemas";
import { dataContentBase64, dataContentProblem, dataContentUrl } from "./data-content";
import { imageMediaType } from "./image-info";
import { defaultMessageLimits, type ResolvedMessageLimits } from "./message-limits";
import { serializeToolResult } from "./serialize-tool-result";

/**
 * The content of a tool message for what a tool's `execute` returned (docs/messages.md, "Tool
 * results with images"). Parts, in the AI SDK's shapes, stay parts:
 *
 * - an image part (`{ type: "image", image, mediaType? }`) or a file part (`{ type: "file", data, mediaType }`);
 * - an array of text, image and file parts;
 * - the AI SDK's content output (`{ type: "content", value: [...] }`, what its `toModelOutput` gives):
 *   `text`, `media`, `image-data`, `image-url`, `file-data` and `file-url` items.
 *
 * Anything else is its text (strings as they are, anything else as JSON), as before. Parts are
 * validated, and parts and text bounded by `limits`, like any message entering the history (text
 * over `maxMessageBytes` included): `{ problem }` says what is wrong (the tool loop gives it to the
 * model as the tool's error, and neither the result nor any part of it is stored).
 */
export function toolResultContent(
  result: unknown,
  limits: ResolvedMessageLimits = defaultMessageLimits,
): { content: string | ToolContentPart[] } | { problem: string } {
  const candidate = partsCandidate(result);
  if (candidate === undefined) {
    const text = serializeToolResult(result);
    const over = contentLimitIssues(text, limits)[0];
    return over === undefined ? { content: text } : { problem: `the result ${over.message}` };
  }
  const parsed = contentSchema("tool").safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `part ${issue.path.join(".")} ${issue.message}` };
  }
  const parts = parsed.data as ToolContentPart[];
  const over = contentLimitIssues(parts, limits)[0];
  if (over !== undefined)
    return { problem: `${over.path.replace(/^content\.?/, "part ") || "the result"} ${over.message}` };
  return { content: parts };
}

/**
 * The AI SDK's content output for a tool result given as parts (what `convertToUIMessages` and
 * the UI stream send as a tool part's `output`): text as `text`, images and files as `media` with
 * base64 data (a remote URL as its href).
 */
export function toContentOutput(parts: readonly ToolContentPart[]): {
  type: "content";
  value: ({ type: "text"; text: string } | { type: "media"; data: string; mediaType: string })[];
} {
  return {
    type: "content",
    value: parts.map((part) => {
      if (part.type === "text") return { type: "text", text: contentText([part]) };
      const data = part.type === "image" ? part.image : part.data;
      const mediaType = (part.type === "image" ? imageMediaType(part) : part.mediaType) ?? "application/octet-stream";
      return { type: "media", data: dataContentBase64(data) ?? dataContentUrl(data, mediaType), mediaType };
    }),
  };
}

/**
 * The parts of the AI SDK's content output (`{ type: "content", value }`), or undefined when
 * `output` is not one or holds an item agentcore cannot keep (which then stays JSON).
 */
export function fromContentOutput(output: unknown): ToolContentPart[] | undefined {
  if (!isRecord(output) || output.type !== "content" || !Array.isArray(output.value)) return undefined;
  if (Object.keys(output).some((key) => key !== "type" && key !== "value")) return undefined;
  const parts: ToolContentPart[] = [];
  for (const item of output.value as unknown[]) {
    const part = contentOutputPart(item);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts;
}

function contentOutputPart(item: unknown): ToolContentPart | undefined {
  if (!isRecord(item)) return undefined;
  const mediaType = typeof item.mediaType === "string" ? item.mediaType : undefined;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? { type: "text", text: item.text } : undefined;
    case "media":
    case "image-data":
    case "file-data":
    case "image-url":
    case "file-url": {
      const data = item.type.endsWith("-url") ? item.url : item.data;
      if (typeof data !== "string" || dataContentProblem(data) !== undefined) return undefined;
      const isImage = item.type.startsWith("image-") || (mediaType?.startsWith("image/") ?? false);
      if (isImage) return { type: "image", image: data, ...(mediaType === undefined ? {} : { mediaType }) };
      if (mediaType === undefined) return undefined;
      const filename = typeof item.filename === "string" ? { filename: item.filename } : {};
      return { type: "file", data, mediaType, ...filename };
    }
    default:
      return undefined;
  }
}

/** The value as tool parts to validate, or undefined when it is not given as parts. */
function partsCandidate(result: unknown): unknown[] | undefined {
  if (Array.isArray(result)) return result.length > 0 && result.every(looksLikePart) ? result : undefined;
  if (!isRecord(result)) return undefined;
  if (result.type === "content") return fromContentOutput(result);
  return (result.type === "image" || result.type === "file") && looksLikePart(result) ? [result] : undefined;
}

/** A text, image or file part by its shape (its data is checked by the schema after). */
function looksLikePart(value: unknown): boolean {
  if (!isRecord(value) || typeof value.type !== "string" || !toolTakes(value.type)) return false;
  switch (value.type) {
    case "text":
      return typeof value.text === "string";
    case "image":
      return isData(value.image);
    case "file":
      return isData(value.data) && typeof value.mediaType === "string";
    default:
      return false;
  }
}

function toolTakes(type: string): boolean {
  return (partTypesByRole.tool as readonly string[]).includes(type);
}

function isData(value: unknown): boolean {
  return typeof value === "string" || isBytes(value) || isUrl(value) || value instanceof ArrayBuffer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
