import type { CompatibilityCallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContentPart } from "../../messages/content-parts";

/**
 * What a tool from an MCP server returns to the tool loop, from the server's result:
 *
 * - `structuredContent` is kept once: preferred over a text block that carries the same data in
 *   any formatting (parsed and compared deeply, key order and whitespace aside), as the spec asks
 *   servers to send it for older clients; alone (or with only such blocks) it is the value itself,
 *   sent to the model as JSON;
 * - with image or audio blocks: parts, in order (the tool message keeps them, docs/messages.md):
 *   text blocks as text parts, images as image parts, audio as file parts (base64, the block's
 *   media type), other blocks described in a text part, then the structured content as JSON;
 * - otherwise one string: text blocks as they are, other blocks described in brackets (resource
 *   links by name and URI, an embedded text resource with its text), then the structured
 *   content as JSON. Blocks are separated by a blank line.
 *
 * `isError` is not looked at here: the caller turns such a result into a tool error.
 */
export function mcpToolResultValue(result: CompatibilityCallToolResult): unknown {
  const blocks: ContentBlock[] = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const structured = result.structuredContent;
  if (blocks.length === 0 && structured === undefined && "toolResult" in result) return result.toolResult; // protocol 2024-10-07
  const kept = structured === undefined ? blocks : blocks.filter((block) => !repeats(block, structured));
  if (structured !== undefined && kept.length === 0) return structured;
  const tail = structured === undefined ? [] : [JSON.stringify(structured)];
  if (!kept.some((block) => block.type === "image" || block.type === "audio")) {
    return [...kept.map(describeBlock), ...tail].join("\n\n");
  }
  const parts = kept.map(blockPart);
  for (const text of tail) parts.push({ type: "text", text });
  return parts;
}

/** The text of a result, for an `isError` result's message: images and audio named, never their data. */
export function mcpToolResultText(result: CompatibilityCallToolResult): string {
  const value = mcpToolResultValue(result);
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return JSON.stringify(value);
  const blocks: ContentBlock[] = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const structured = result.structuredContent;
  const kept = structured === undefined ? blocks : blocks.filter((block) => !repeats(block, structured));
  return [...kept.map(describeBlock), ...(structured === undefined ? [] : [JSON.stringify(structured)])].join("\n\n");
}

/** A content block as text: text as it is, other blocks described in brackets. */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} (${block.mimeType}, ${formatBytes(base64Bytes(block.data))})]`;
    case "resource_link":
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ""}${block.description ? `: ${block.description}` : ""}]`;
    case "resource": {
      const resource = block.resource;
      const type = resource.mimeType ? ` (${resource.mimeType})` : "";
      if ("text" in resource && typeof resource.text === "string")
        return `[resource <${resource.uri}>${type}]\n${resource.text}`;
      const size =
        "blob" in resource && typeof resource.blob === "string" ? `, ${formatBytes(base64Bytes(resource.blob))}` : "";
      return `[resource <${resource.uri}>${type}${size} of binary data not shown]`;
    }
    default:
      return `[${(block as { type: string }).type} content not shown]`;
  }
}

/** A block as a tool part: images and audio as data (validated by the tool loop), anything else as text. */
function blockPart(block: ContentBlock): ToolContentPart {
  if (block.type === "image") return { type: "image", image: block.data, mediaType: block.mimeType };
  if (block.type === "audio") return { type: "file", data: block.data, mediaType: block.mimeType };
  return { type: "text", text: describeBlock(block) };
}

/** True for a text block that carries `structured` as JSON, in any formatting or key order. */
function repeats(block: ContentBlock, structured: unknown): boolean {
  if (block.type !== "text") return false;
  try {
    return sameData(JSON.parse(block.text), structured);
  } catch {
    return false;
  }
}

/** Deep equality of JSON values: objects by their keys in any order, arrays in order. */
export function sameData(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return left.length === other.length && left.every((item, index) => sameData(item, other[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const otherKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return (
    keys.length === otherKeys.length &&
    keys.every((key) => Object.hasOwn(rightRecord, key) && sameData(leftRecord[key], rightRecord[key]))
  );
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
