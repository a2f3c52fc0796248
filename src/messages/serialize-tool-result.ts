/** The content of a tool message for a tool's return value: strings as they are, anything else as JSON. */
export function serializeToolResult(result: unknown): string {
  if (typeof result === "string") return result;
  if (result === undefined) return "";
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}
