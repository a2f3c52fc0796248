/** The message of a thrown value, for an error message that wraps it (`String(value)` when it is not an Error). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The class of a thrown value, for `error.type`: its `name`, or its constructor's name for an
 * `Error` subclass that kept the name "Error"; `typeof` for a value that is not an Error.
 */
export function errorType(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  if (error.name && error.name !== "Error") return error.name;
  return error.constructor?.name || "Error";
}
