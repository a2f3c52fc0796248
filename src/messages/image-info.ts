import { decodeBase64 } from "./base64";
import { type DataContent, isBytes, isUrl } from "./content-parts";

/**
 * The format and size of an image, read from its header (PNG, JPEG, GIF, WebP), without a
 * dependency and without decoding the image. Used for token estimates (tokens/image-tokens.ts) and
 * to give bytes without a `mediaType` one.
 */
export interface ImageInfo {
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  /** Pixels; undefined when the header does not say (a truncated or unusual file). */
  width?: number;
  height?: number;
}

/** Bytes of base64 decoded to look for a header: JPEG's size marker may follow a large EXIF block. */
const HEADER_BYTES = 256 * 1024;

/** The bytes at the start of binary content (at most `HEADER_BYTES`); undefined for a remote URL. */
export function leadingBytes(value: DataContent, limit = HEADER_BYTES): Uint8Array | undefined {
  if (isBytes(value)) return value.subarray(0, limit);
  const text = isUrl(value) ? value.href : value;
  let base64 = text;
  if (/^data:/i.test(text)) base64 = text.slice(text.indexOf(",") + 1);
  else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return undefined;
  const length = Math.min(base64.length, Math.ceil(limit / 3) * 4);
  try {
    return decodeBase64(base64.slice(0, length - (length % 4)));
  } catch {
    return undefined;
  }
}

/** The image's format and size from its first bytes; undefined when it is none of the four formats. */
export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = (offset: number) => (offset < bytes.length ? bytes[offset]! : -1);
  // PNG: signature, then the IHDR chunk: width and height, big-endian 32-bit.
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) {
    if (bytes.length < 24) return { mediaType: "image/png" };
    return { mediaType: "image/png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  // GIF: "GIF8", then the logical screen size, little-endian 16-bit.
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) {
    if (bytes.length < 10) return { mediaType: "image/gif" };
    return { mediaType: "image/gif", width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  // WebP: "RIFF" <size> "WEBP", then a VP8, VP8L or VP8X chunk.
  if (at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46 && at(8) === 0x57 && at(9) === 0x45) {
    return { mediaType: "image/webp", ...webpSize(bytes, view) };
  }
  // JPEG: SOI, then segments up to a start-of-frame marker, which holds height then width.
  if (at(0) === 0xff && at(1) === 0xd8) return { mediaType: "image/jpeg", ...jpegSize(bytes, view) };
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): { width?: number; height?: number } {
  if (bytes.length < 30) return {};
  const chunk = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (chunk === "VP8 ") {
    // Lossy: after a 3-byte frame tag and the 3-byte start code, 14-bit width and height.
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    // Lossless: a signature byte, then width-1 and height-1 in 14 bits each.
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    // Extended: canvas width-1 and height-1, 24-bit little-endian.
    const width = bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16);
    const height = bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16);
    return { width: width + 1, height: height + 1 };
  }
  return {};
}

function jpegSize(bytes: Uint8Array, view: DataView): { width?: number; height?: number } {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return {};
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // Start of frame: SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    if (length < 2) return {};
    offset += 2 + length;
  }
  return {};
}

/** The media type of an image part: the one given, else the one its header shows, else undefined. */
export function imageMediaType(part: { image: DataContent; mediaType?: string }): string | undefined {
  if (part.mediaType !== undefined) return part.mediaType;
  const bytes = leadingBytes(part.image, 64);
  return bytes === undefined ? undefined : readImageInfo(bytes)?.mediaType;
}
