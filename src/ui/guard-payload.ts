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
 * First line of defence for message lists that arrive from a browser: an array, not too many
 * messages, not too large or deep, no cycles, no prototype-polluting keys anywhere, and only
 * well-formed text (no lone surrogates, which providers reject or mangle).
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

  // Walk every value once: depth, cycles and keys.
  const seen = new Set<object>();
  const stack: { value: unknown; depth: number; index: number; path: string }[] = list.map((value, index) => ({
    value,
    depth: 1,
    index,
    path: "",
  }));
  while (stack.length > 0) {
    const { value, depth, index, path } = stack.pop()!;
    if (typeof value === "string") {
      if (loneSurrogate.test(value)) refuse(index, path, "contains a lone surrogate (text that is not valid UTF-16)");
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > maxDepth) refuse(index, path, `nested deeper than ${maxDepth} levels`);
    if (seen.has(value)) refuse(index, path, "contains a cycle");
    seen.add(value);
    for (const key of Object.keys(value)) {
      if (pollutes(value as Record<string, unknown>, key))
        refuse(index, path ? `${path}.${key}` : key, `the key "${key}" is not accepted`);
      if (loneSurrogate.test(key)) refuse(index, path, "has a key with a lone surrogate (not valid UTF-16)");
      stack.push({
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        index,
        path: path ? `${path}.${key}` : key,
      });
    }
  }
  const bytes = utf8ByteLength(JSON.stringify(list));
  if (bytes > maxBytes) refuse(-1, "", `the payload is ${bytes} bytes, more than the limit of ${maxBytes}`);
  return list;
}
