// An app's own fields on a session (`SessionEntry.metadata`): JSON, bounded, checked before any
// store sees them.
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { utf8ByteLength } from "../messages/utf8-byte-length";

/** A JSON value: what `metadata` may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An app's own fields on a session. */
export type SessionMetadata = { [key: string]: JsonValue };

/** The largest session metadata accepted, in bytes of its JSON. */
export const MAX_SESSION_METADATA_BYTES = 16 * 1024;

const MAX_DEPTH = 16;

function checkValue(value: unknown, path: string, depth: number, argument: string): void {
  const refuse = (why: string) => new InvalidArgumentError({ argument, message: `${argument}${path}: ${why}`, value });
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw refuse("numbers must be finite (JSON has no NaN or Infinity).");
    return;
  }
  if (typeof value !== "object") throw refuse(`a ${typeof value} is not JSON.`);
  if (depth >= MAX_DEPTH) throw refuse(`nested deeper than ${MAX_DEPTH} levels.`);
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkValue(item, `${path}[${index}]`, depth + 1, argument));
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw refuse("only plain objects are JSON objects.");
  for (const key of Object.keys(value)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype")
      throw refuse(`the key "${key}" is not accepted (it could poison prototypes).`);
    checkValue((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, argument);
  }
}

/**
 * Refuses what is not a plain JSON object of at most `MAX_SESSION_METADATA_BYTES` (an
 * `InvalidArgumentError` naming the path of the first bad value); returns its JSON.
 */
export function checkSessionMetadata(value: unknown, argument = "metadata"): string {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InvalidArgumentError({ argument, message: `${argument} must be a plain JSON object.`, value });
  checkValue(value, "", 0, argument);
  const json = JSON.stringify(value);
  const bytes = utf8ByteLength(json);
  if (bytes > MAX_SESSION_METADATA_BYTES)
    throw new InvalidArgumentError({
      argument,
      message: `${argument} is ${bytes} bytes of JSON; at most ${MAX_SESSION_METADATA_BYTES} are accepted.`,
    });
  return json;
}

/** The longest title accepted, in UTF-16 code units. */
export const MAX_TITLE_LENGTH = 200;

/** Refuses a title that is not a string of 1 to `MAX_TITLE_LENGTH` characters after trimming; returns it trimmed. */
export function checkTitle(value: unknown): string {
  const title = typeof value === "string" ? value.trim() : undefined;
  if (title === undefined || title === "" || title.length > MAX_TITLE_LENGTH)
    throw new InvalidArgumentError({
      argument: "title",
      message: `A session title must be a string of 1 to ${MAX_TITLE_LENGTH} characters (got ${typeof value === "string" ? `${value.length} characters` : typeof value}).`,
    });
  return title;
}

/**
 * Checks what `updateSession` records (every store calls it first): a title of 1 to 200 characters
 * (returned trimmed), metadata a plain JSON object of at most 16 KiB (returned with its JSON).
 */
export function checkSessionUpdate<T extends { title?: unknown; metadata?: unknown }>(
  update: T,
): T & { metadataJson?: string } {
  if (update === null || typeof update !== "object")
    throw new InvalidArgumentError({
      argument: "metadata",
      message: "updateSession takes an object of fields to record.",
    });
  const checked: T & { metadataJson?: string } = { ...update };
  if (update.title !== undefined) checked.title = checkTitle(update.title);
  if (update.metadata !== undefined) checked.metadataJson = checkSessionMetadata(update.metadata);
  return checked;
}
