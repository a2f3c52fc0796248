import { base64ByteLength, base64Problem, encodeBase64 } from "./base64";
import { type DataContent, isBytes, isUrl } from "./content-parts";

/**
 * Checks and sizes of the binary content of image and file parts (docs/messages.md, "Accepted
 * data"): bytes, base64, a base64 `data:` URL, or an `http(s)` URL (string or `URL`), which is
 * passed on and never fetched.
 */

const schemePattern = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const mediaTypePattern = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/;

/** The parts of a `data:` URL, or why it is malformed. */
export type ParsedDataUrl = { mediaType: string | undefined; base64: string } | { problem: string };

/** Splits a base64 `data:` URL (`data:<mediaType>[;<parameter>...];base64,<payload>`) and checks it. */
export function parseDataUrl(url: string): ParsedDataUrl {
  const comma = url.indexOf(",");
  if (comma === -1) return { problem: "is a malformed data: URL (no comma before the payload)" };
  const header = url.slice(5, comma).split(";");
  if (header.length < 2 || header[header.length - 1]!.toLowerCase() !== "base64") {
    return { problem: "is a data: URL that is not base64 (expected data:<mediaType>;base64,<payload>)" };
  }
  const mediaType = header[0] === "" ? undefined : header[0]!;
  if (mediaType !== undefined && !mediaTypePattern.test(mediaType)) {
    return { problem: `is a malformed data: URL (media type ${JSON.stringify(mediaType.slice(0, 80))})` };
  }
  const base64 = url.slice(comma + 1);
  const problem = base64Problem(base64);
  if (problem !== undefined) return { problem: `is a malformed data: URL (its payload ${problem})` };
  return { mediaType, base64 };
}

/** Why `value` is not acceptable binary content, or undefined when it is. */
export function dataContentProblem(value: DataContent): string | undefined {
  if (isBytes(value)) return value.byteLength === 0 ? "is empty (0 bytes)" : undefined;
  const text = isUrl(value) ? value.href : value;
  const scheme = schemePattern.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (text.length === 0) return "is empty";
    return base64Problem(text);
  }
  if (scheme === "data") {
    const parsed = parseDataUrl(text);
    if ("problem" in parsed) return parsed.problem;
    return parsed.base64.length === 0 ? "is an empty data: URL" : undefined;
  }
  if (scheme === "http" || scheme === "https") {
    if (isUrl(value)) return undefined;
    try {
      new URL(text);
      return undefined;
    } catch {
      return "is a malformed URL";
    }
  }
  return `is a ${scheme}: URL; give bytes, base64, a base64 data: URL or an http(s) URL`;
}

/**
 * Bytes that valid binary content counts against the limits: the decoded bytes of bytes, base64
 * and `data:` URLs; the characters of a remote URL (what is stored, since it is never fetched).
 */
export function dataContentBytes(value: DataContent): number {
  if (isBytes(value)) return value.byteLength;
  if (isUrl(value)) return value.protocol === "data:" ? dataUrlBytes(value.href) : value.href.length;
  if (/^data:/i.test(value)) return dataUrlBytes(value);
  if (schemePattern.test(value)) return value.length;
  return base64ByteLength(value);
}

function dataUrlBytes(url: string): number {
  return base64ByteLength(url.slice(url.indexOf(",") + 1));
}

/** True when `value` is a remote (http or https) URL, as a string or a `URL`. */
export function isRemoteUrl(value: DataContent): boolean {
  if (isBytes(value)) return false;
  const text = isUrl(value) ? value.href : value;
  return /^https?:/i.test(text);
}

/** True when `value` is its content (bytes, base64 or a `data:` URL), not a link to it (a remote URL). */
export function isInlineData(value: DataContent): boolean {
  if (isBytes(value)) return true;
  const text = isUrl(value) ? value.href : value;
  return /^data:/i.test(text) || !schemePattern.test(text);
}

/**
 * Binary content as a URL a browser or an API can take: a remote URL as is, a `data:` URL as is,
 * bytes and base64 as a base64 `data:` URL of `mediaType`.
 */
export function dataContentUrl(value: DataContent, mediaType: string): string {
  if (isUrl(value)) return value.href;
  if (isBytes(value)) return `data:${mediaType};base64,${encodeBase64(value)}`;
  if (schemePattern.test(value)) return value;
  return `data:${mediaType};base64,${value}`;
}

/** Binary content as standard base64 (no `data:` prefix); undefined for a remote URL. */
export function dataContentBase64(value: DataContent): string | undefined {
  if (isBytes(value)) return encodeBase64(value);
  const text = isUrl(value) ? value.href : value;
  if (/^data:/i.test(text)) return toStandardBase64(text.slice(text.indexOf(",") + 1));
  if (schemePattern.test(text)) return undefined;
  return toStandardBase64(text);
}

function toStandardBase64(text: string): string {
  const standard = /[-_]/.test(text) ? text.replace(/-/g, "+").replace(/_/g, "/") : text;
  return standard.length % 4 === 0 ? standard : standard.padEnd(Math.ceil(standard.length / 4) * 4, "=");
}
