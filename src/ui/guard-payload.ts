import { InvalidMessageError } from "../errors/invalid-message-error";
import { utf8ByteLength } from "../messages/utf8-byte-length";

export interface PayloadLimits {
  /** Most messages accepted. @default 1000 */
  maxMessages?: number;
  /** Largest payload accepted, in bytes of its JSON. @default 4 MiB */
  maxBytes?: number;
  /** Deepest nesting accepted (objects and arrays). @default 64 */
  maxDepth?: number;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The keys that poison prototypes when code copies or merges the value: any `__proto__`, and a
 * `constructor` that holds a `prototype` (the rule of the AI SDK's secure JSON parser and
 * fastify's secure-json-parse). A plain `"constructor": "Ferrari"` or `"prototype": false` in a
 * tool's output is data, and a conversation holding it must still come back from the browser.
 */
function pollutes(value: Record<string, unknown>, key: string): boolean {
  if (key === "__proto__") return true;
  if (key !== "constructor") return false;
  const inner = value[key];
  return inner !== null && typeof inner === "object" && Object.hasOwn(inner, "prototype");
}

/**
 * A container being walked: its children are read one at a time, when their turn comes (an
 * array by index, an object by its keys), so nothing after the point of refusal is read.
 */
interface Frame {
  container: Record<string, unknown>;
  /** The object's keys; undefined for an array (walked by index). */
  keys: string[] | undefined;
  length: number;
  position: number;
  depth: number;
  /** The message index the container is in; -1 for the list itself. */
  index: number;
  path: string;
}

function frameOf(value: object, depth: number, index: number, path: string): Frame {
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  const length = keys ? keys.length : (value as unknown[]).length;
  return { container: value as Record<string, unknown>, keys, length, position: 0, depth, index, path };
}

/**
 * First line of defence for message lists that arrive from a browser: an array, not too many
 * messages, not too large or deep, no cycles, no prototype-polluting keys anywhere, and only
 * well-formed text (no lone surrogates, which providers reject or mangle).
 *
 * One walk in document order checks it all and counts the payload's size as it goes (a lower
 * bound of its JSON: every UTF-16 unit is at least one byte), so a payload over `maxBytes` is
 * refused at the first value that passes the limit: nothing after it is read, no large string is
 * scanned, nothing is serialised or copied. Only a payload within the bound is measured exactly.
 */
export function guardUIPayload(input: unknown, limits: PayloadLimits = {}): unknown[] {
  const maxMessages = limits.maxMessages ?? 1000;
  const maxBytes = limits.maxBytes ?? 4 * 1024 * 1024;
  const maxDepth = limits.maxDepth ?? 64;
  const refuse = (index: number, path: string, message: string): never => {
    throw new InvalidMessageError({ issues: [{ index, path, message }] });
  };
  if (!Array.isArray(input))
    refuse(-1, "", `expected an array of UI messages, got ${input === null ? "null" : typeof input}`);
  const list = input as unknown[];
  if (list.length > maxMessages) refuse(-1, "", `${list.length} messages is more than the limit of ${maxMessages}`);

  let bytes = 2; // the brackets of the list (commas are not counted: a lower bound)
  const count = (size: number, index: number, path: string) => {
    bytes += size;
    if (bytes > maxBytes)
      refuse(index, path, `the payload is more than the limit of ${maxBytes} bytes (passed at this field)`);
  };
  const seen = new Set<object>();
  const frames: Frame[] = [frameOf(list, 1, -1, "")];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.position >= frame.length) {
      frames.pop();
      continue;
    }
    const position = frame.position++;
    const { container, keys, depth } = frame;
    const key = keys ? keys[position]! : String(position);
    const index = frame.index === -1 ? position : frame.index;
    const path = frame.index === -1 ? "" : frame.path ? `${frame.path}.${key}` : key;
    if (keys) {
      if (pollutes(container, key)) refuse(index, path, `the key "${key}" is not accepted`);
      if (loneSurrogate.test(key)) refuse(index, frame.path, "has a key with a lone surrogate (not valid UTF-16)");
    }
    const value = container[key];
    // JSON leaves out an object's keys whose value it cannot write (an array writes null for them);
    // every other object key costs at least `"key":`.
    const written = value !== undefined && typeof value !== "function" && typeof value !== "symbol";
    if (!keys && !written) {
      count(4, index, path);
      continue;
    }
    if (!written) continue;
    if (keys) count(key.length + 3, index, path);
    if (typeof value === "string") {
      count(value.length + 2, index, path);
      if (loneSurrogate.test(value)) refuse(index, path, "contains a lone surrogate (text that is not valid UTF-16)");
      continue;
    }
    if (value === null || typeof value !== "object") {
      count(1, index, path);
      continue;
    }
    if (depth > maxDepth) refuse(index, path, `nested deeper than ${maxDepth} levels`);
    if (seen.has(value)) refuse(index, path, "contains a cycle");
    seen.add(value);
    count(2, index, path);
    frames.push(frameOf(value, depth + 1, index, path));
  }
  const exact = utf8ByteLength(JSON.stringify(list));
  if (exact > maxBytes) refuse(-1, "", `the payload is ${exact} bytes, more than the limit of ${maxBytes}`);
  return list;
}
