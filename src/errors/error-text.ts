/** The message of a thrown value, for an error message that wraps it (`String(value)` when it is not an Error). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
