import type { ToolContentPart } from "../messages/content-parts";
import { dataContentProblem } from "../messages/data-content";
import { serializeToolResult } from "../messages/serialize-tool-result";

/**
 * The content of a tool message for a UI tool part's `output`. The AI SDK's content output
 * (`{ type: "content", value: [{ type: "text", text } | { type: "media", data, mediaType }] }`,
 * what `convertToUIMessages` writes for a result given as parts) becomes text and image parts
 * again; any other value is its text (strings as they are, anything else as JSON).
 */
export function toolResultContent(output: unknown): string | ToolContentPart[] {
  const parts = contentOutputParts(output);
  return parts ?? serializeToolResult(output);
}

function contentOutputParts(output: unknown): ToolContentPart[] | undefined {
  if (output === null || typeof output !== "object") return undefined;
  const { type, value } = output as Record<string, unknown>;
  if (type !== "content" || !Array.isArray(value) || Object.keys(output).length !== 2) return undefined;
  const parts: ToolContentPart[] = [];
  for (const item of value as unknown[]) {
    if (item === null || typeof item !== "object") return undefined;
    const entry = item as Record<string, unknown>;
    if (entry.type === "text" && typeof entry.text === "string") parts.push({ type: "text", text: entry.text });
    else if (
      entry.type === "media" &&
      typeof entry.data === "string" &&
      typeof entry.mediaType === "string" &&
      entry.mediaType.startsWith("image/") &&
      dataContentProblem(entry.data) === undefined
    )
      parts.push({ type: "image", image: entry.data, mediaType: entry.mediaType });
    else return undefined;
  }
  return parts;
}
