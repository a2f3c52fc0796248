import { boundToolArguments } from "../messages/tool-arguments-depth";

/**
 * Parses the arguments text of a tool call made by a model. Models sometimes send invalid JSON
 * or a non-object; that must not crash the run. Such arguments become `{}`: the tool's zod schema
 * then rejects them (when it has required fields) and the agent sends that error back to the
 * model as the tool result, so the model can call again. Empty text (a tool without parameters)
 * is `{}` too. Arguments nested deeper than `MAX_TOOL_ARGUMENTS_DEPTH` become `ARGUMENTS_TOO_DEEP`
 * (an empty object the agent answers with a tool error, never runs).
 */
export function parseToolArguments(text: string | undefined | null): Record<string, unknown> {
  if (text == null || text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? boundToolArguments(value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
