import type { ToolContentPart } from "../messages/content-parts";
import { serializeToolResult } from "../messages/serialize-tool-result";
import { fromContentOutput } from "../messages/tool-result-content";

/**
 * The content of a tool message for a UI tool part's `output`. The AI SDK's content output
 * (`{ type: "content", value: [{ type: "text", text } | { type: "media", data, mediaType }] }`,
 * what `convertToUIMessages` writes for a result given as parts) becomes parts again; any other
 * value is its text (strings as they are, anything else as JSON).
 */
export function toolResultContent(output: unknown): string | ToolContentPart[] {
  return fromContentOutput(output) ?? serializeToolResult(output);
}
