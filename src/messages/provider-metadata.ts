import type { ProviderOptions } from "./content-parts";
import { utf8ByteLength } from "./utf8-byte-length";

/**
 * Provider metadata as it crosses to and from a browser: the AI SDK's `ProviderMetadata`, one
 * object of JSON values per provider (`{ anthropic: { signature: "…" } }`). It is what the UI
 * stream sends as a part's `providerMetadata` and what `convertToModelMessages` reads back into
 * `providerOptions`.
 */

/** Most bytes (UTF-8 of its JSON) one part's provider metadata may take when a client sends it: 1 MiB. */
export const MAX_PROVIDER_METADATA_BYTES = 1024 * 1024;

/**
 * A part's `providerMetadata` from an untrusted client, copied as plain JSON into new objects (so
 * nothing but its data reaches `providerOptions`), or the problem with it: not an object of
 * per-provider objects, a value that is not JSON (a function, a class instance, a non-finite
 * number), or more than `maxBytes`. `__proto__` keys are refused (a copy would set a prototype).
 */
export function readProviderMetadata(
  value: unknown,
  maxBytes: number = MAX_PROVIDER_METADATA_BYTES,
): { metadata: ProviderOptions } | { problem: string } {
  if (!isPlainObject(value)) return { problem: "expected an object of provider objects ({ anthropic: { … } })" };
  const metadata: ProviderOptions = {};
  for (const [provider, options] of Object.entries(value)) {
    if (provider === "__proto__") return { problem: 'the key "__proto__" is not accepted' };
    if (!isPlainObject(options)) return { problem: `expected ${provider} to be an object` };
    const copy = plainJson(options);
    if (copy === undefined) return { problem: `${provider} holds a value that is not plain JSON` };
    define(metadata, provider, copy);
  }
  const bytes = utf8ByteLength(JSON.stringify(metadata));
  if (bytes > maxBytes) return { problem: `${bytes} bytes is more than the limit of ${maxBytes}` };
  return { metadata };
}

/**
 * What of a part's `providerOptions` the UI stream can send as `providerMetadata` (the shape
 * `useChat` accepts): the providers whose options are plain JSON objects, copied; undefined when
 * none is.
 */
export function uiProviderMetadata(options: ProviderOptions | undefined): ProviderOptions | undefined {
  if (options === undefined) return undefined;
  let metadata: ProviderOptions | undefined;
  for (const [provider, value] of Object.entries(options)) {
    const copy = isPlainObject(value) ? plainJson(value) : undefined;
    if (copy !== undefined) define((metadata ??= {}), provider, copy);
  }
  return metadata;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A deep copy of a JSON value in new plain objects and arrays (undefined object fields left out), or undefined if it is not JSON. */
function plainJson(value: unknown, depth = 0): unknown {
  if (depth > 64) return undefined;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const itemCopy = plainJson(item, depth + 1);
      if (itemCopy === undefined) return undefined;
      copy.push(itemCopy);
    }
    return copy;
  }
  if (!isPlainObject(value)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (key === "__proto__") return undefined;
    const fieldCopy = plainJson(field, depth + 1);
    if (fieldCopy === undefined) return undefined;
    define(copy, key, fieldCopy);
  }
  return copy;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
