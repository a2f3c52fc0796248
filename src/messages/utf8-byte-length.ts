/**
 * Bytes of `text` in UTF-8, counted without encoding it (works in every runtime, allocates
 * nothing). A lone surrogate counts 3 bytes, as `TextEncoder` writes it (U+FFFD).
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A surrogate pair: two UTF-16 units, four bytes.
        bytes += 2;
        index++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
