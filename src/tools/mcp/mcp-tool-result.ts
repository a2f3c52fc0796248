import type { CompatibilityCallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/**
 * What a tool from an MCP server returns to the tool loop, from the server's result:
 *
 * - `structuredContent` alone (or with text blocks that only repeat it as JSON, as the spec asks
 *   servers to do): the structured value itself, sent to the model as JSON;
 * - otherwise one string: text blocks as they are, other blocks described in brackets (a tool
 *   message is text: images and audio are named with their type and size, not sent; resource
 *   links by name and URI; an embedded text resource with its text), then the structured
 *   content as JSON when no text block carried it. Blocks are separated by a blank line.
 *
 * `isError` is not looked at here: the caller turns such a result into a tool error.
 */
export function mcpToolResultValue(result: CompatibilityCallToolResult): unknown {
  const blocks: ContentBlock[] = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const structured = result.structuredContent;
  if (blocks.length === 0 && structured === undefined && "toolResult" in result) return result.toolResult; // protocol 2024-10-07
  if (structured !== undefined) {
    const repeats = (block: ContentBlock) => block.type === "text" && sameJson(block.text, structured);
    if (blocks.every(repeats)) return structured;
    const parts = blocks.filter((block) => !repeats(block)).map(describeBlock);
    return [...parts, JSON.stringify(structured)].join("\n\n");
  }
  return blocks.map(describeBlock).join("\n\n");
}

/** The text of a result, for an `isError` result's message. */
export function mcpToolResultText(result: CompatibilityCallToolResult): string {
  const value = mcpToolResultValue(result);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A content block as text: text as it is, other blocks described in brackets. */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} (${block.mimeType}, ${formatBytes(base64Bytes(block.data))}) not shown: tool results reach the model as text]`;
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

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
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
