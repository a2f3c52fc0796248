import { InvalidArgumentError } from "../errors/invalid-argument-error";

/** Longest session (or user) id accepted. */
export const MAX_SESSION_ID_LENGTH = 256;

/** Longest fact scope id: a session or user id with its namespace prefix (`session:`, `user:`). */
export const MAX_SCOPE_ID_LENGTH = MAX_SESSION_ID_LENGTH + 16;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds an unpaired UTF-16 surrogate (`String.prototype.isWellFormed` from ES2024). */
export function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const forbidden = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether a string holds a control character (C0, DEL, C1) or a Unicode line or paragraph separator. */
export function hasControlCharacter(text: string): boolean {
  return forbidden.test(text);
}

/**
 * Whether every character of `text` is printable ASCII (U+0020 to U+007E): such a string has no
 * control character and no surrogate, so the checks above pass without running their patterns.
 * Ids are almost always of this kind (UUIDs, `call_…`), and stores check each one on every write.
 */
export function isPrintableAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/**
 * Validates a session or user id once, where it enters agentcore. Ids are opaque to stores:
 * each store keeps an id inside its own place (escaped path, key prefix, row) by its own means.
 */
export function validateSessionId(id: unknown, argument = "sessionId", maxLength = MAX_SESSION_ID_LENGTH): string {
  if (typeof id !== "string" || id.length === 0) {
    throw new InvalidArgumentError({ argument, value: id, message: `${argument} must be a non-empty string.` });
  }
  if (id.length > maxLength) {
    throw new InvalidArgumentError({
      argument,
      value: id,
      message: `${argument} is ${id.length} characters long; the limit is ${maxLength}.`,
    });
  }
  if (isPrintableAscii(id)) return id;
  if (forbidden.test(id)) {
    throw new InvalidArgumentError({
      argument,
      value: id,
      message: `${argument} must not contain control characters.`,
    });
  }
  // A lone surrogate has no UTF-8 form: PostgreSQL would store it as U+FFFD (merging
  // "x\ud800" with "x\ufffd"), encodeURIComponent throws, SQLite reads back another id.
  if (hasLoneSurrogate(id)) {
    throw new InvalidArgumentError({
      argument,
      value: id,
      message: `${argument} must be well-formed Unicode: it contains a lone surrogate (an unpaired \\ud800-\\udfff).`,
    });
  }
  return id;
}

/** Validates the scope id of the fact methods of a store (see `factScopeId`). */
export function validateScopeId(id: unknown): string {
  return validateSessionId(id, "scopeId", MAX_SCOPE_ID_LENGTH);
}
