import { base64Problem, decodeBase64, encodeBase64 } from "./base64";
import { isBytes, isUrl } from "./content-parts";

/**
 * The stored encoding of messages (docs/messages.md, "Stored encoding"): the one JSON-safe form
 * every store, export and journal writes. JSON holds neither bytes nor a `URL`, so in the `image`
 * field of an image part and the `data` field of a file part:
 *
 * - a `Uint8Array` is stored as `{ "$bytes": "<standard base64>" }`,
 * - a `URL` as `{ "$url": "<href>" }`,
 * - a string stays a string.
 *
 * A valid message has only strings, bytes or URLs in those fields, so an object there is always
 * one of these two. Messages with string content, every message ever stored before parts existed,
 * are returned as they are (the same object, nothing copied): old rows and files read unchanged.
 */

interface EncodedBytes {
  $bytes: string;
}
interface EncodedUrl {
  $url: string;
}

/** The JSON-safe form of one message; the message itself when it has no bytes or URLs. */
export function encodeStoredMessage<Message>(message: Message): Message {
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content) || !content.some(needsEncoding)) return message;
  return { ...message, content: content.map(encodePart) };
}

/** `encodeStoredMessage` over a list; the list itself when no message changes. */
export function encodeStoredMessages<Message>(messages: readonly Message[]): Message[] {
  let encoded: Message[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    const result = encodeStoredMessage(message);
    if (result !== message && encoded === undefined) encoded = messages.slice(0, index);
    encoded?.push(result);
  }
  return encoded ?? (messages as Message[]);
}

/**
 * A message as it was before `encodeStoredMessage`, from what `JSON.parse` gave back. Anything it
 * does not recognise is left for `parseAgentMessages` to name.
 */
export function decodeStoredMessage<Message>(message: Message): Message {
  if (typeof message !== "object" || message === null) return message;
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content) || !content.some(isEncodedPart)) return message;
  return { ...message, content: content.map(decodePart) };
}

/** `decodeStoredMessage` over a list (changed in place: it is a fresh parse). */
export function decodeStoredMessages<Message>(messages: Message[]): Message[] {
  for (let index = 0; index < messages.length; index++) messages[index] = decodeStoredMessage(messages[index]!);
  return messages;
}

function dataField(part: unknown): "image" | "data" | undefined {
  if (typeof part !== "object" || part === null) return undefined;
  const type = (part as { type?: unknown }).type;
  return type === "image" ? "image" : type === "file" ? "data" : undefined;
}

function needsEncoding(part: unknown): boolean {
  const field = dataField(part);
  if (field === undefined) return false;
  const value = (part as Record<string, unknown>)[field];
  return isBytes(value) || isUrl(value);
}

function encodePart(part: unknown): unknown {
  const field = dataField(part);
  if (field === undefined) return part;
  const value = (part as Record<string, unknown>)[field];
  if (isBytes(value)) return { ...(part as object), [field]: { $bytes: encodeBase64(value) } satisfies EncodedBytes };
  if (isUrl(value)) return { ...(part as object), [field]: { $url: value.href } satisfies EncodedUrl };
  return part;
}

function encodedValue(part: unknown): EncodedBytes | EncodedUrl | undefined {
  const field = dataField(part);
  if (field === undefined) return undefined;
  const value = (part as Record<string, unknown>)[field];
  if (typeof value !== "object" || value === null) return undefined;
  if (typeof (value as EncodedBytes).$bytes === "string") return value as EncodedBytes;
  if (typeof (value as EncodedUrl).$url === "string") return value as EncodedUrl;
  return undefined;
}

function isEncodedPart(part: unknown): boolean {
  return encodedValue(part) !== undefined;
}

function decodePart(part: unknown): unknown {
  const value = encodedValue(part);
  if (value === undefined) return part;
  const field = dataField(part)!;
  if ("$bytes" in value) {
    // Corrupt base64 is left encoded, for `parseAgentMessages` to name, never decoded to other bytes.
    if (base64Problem(value.$bytes) !== undefined) return part;
    return { ...(part as object), [field]: decodeBase64(value.$bytes) };
  }
  let url: URL | string;
  try {
    url = new URL(value.$url);
  } catch {
    url = value.$url; // a malformed stored URL: left as a string, for `parseAgentMessages` to name
  }
  return { ...(part as object), [field]: url };
}
