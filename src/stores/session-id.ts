import { InvalidArgumentError } from "../errors/invalid-argument-error";

/** Longest session (or user) id accepted. */
export const MAX_SESSION_ID_LENGTH = 256;

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators.
const forbidden = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Validates a session or user id once, where it enters agentcore. Ids are opaque to stores:
 * each store keeps an id inside its own place (escaped path, key prefix, row) by its own means.
 */
export function validateSessionId(id: unknown, argument = "sessionId"): string {
  if (typeof id !== "string" || id.length === 0) {
    throw new InvalidArgumentError({ argument, value: id, message: `${argument} must be a non-empty string.` });
  }
  if (id.length > MAX_SESSION_ID_LENGTH) {
    throw new InvalidArgumentError({
      argument,
      value: id,
      message: `${argument} is ${id.length} characters long; the limit is ${MAX_SESSION_ID_LENGTH}.`,
    });
  }
  if (forbidden.test(id)) {
    throw new InvalidArgumentError({ argument, value: id, message: `${argument} must not contain control characters.` });
  }
  return id;
}
