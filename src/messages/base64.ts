/**
 * Base64 without `Buffer` (edge runtimes have none; Node's is used when present, it is faster).
 * Decoding accepts the standard and the URL-safe alphabet, padded or not.
 */

const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Why `text` is not base64, or undefined when it is. Whitespace is not accepted. */
export function base64Problem(text: string): string | undefined {
  if (!base64Pattern.test(text)) return "is not base64 (characters outside A-Z a-z 0-9 + / - _ =, or misplaced =)";
  const padded = text.endsWith("=");
  if (padded ? text.length % 4 !== 0 : text.length % 4 === 1)
    return "is not base64 (its length is not a whole number of bytes)";
  return undefined;
}

/** Bytes that valid base64 `text` decodes to. */
export function base64ByteLength(text: string): number {
  let padding = 0;
  if (text.endsWith("==")) padding = 2;
  else if (text.endsWith("=")) padding = 1;
  return Math.floor(((text.length - padding) * 3) / 4);
}

interface NodeBuffer {
  from(data: Uint8Array | ArrayBufferLike | string, offsetOrEncoding?: number | string, length?: number): Uint8Array;
}
const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

/** Standard, padded base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) {
    return (
      NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as {
        toString(encoding: string): string;
      }
    ).toString("base64");
  }
  let binary = "";
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return btoa(binary);
}

/** The bytes of valid base64 `text` (standard or URL-safe), as a plain `Uint8Array`. */
export function decodeBase64(text: string): Uint8Array {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  if (NodeBuffer !== undefined) {
    const buffer = NodeBuffer.from(standard, "base64");
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
  }
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
