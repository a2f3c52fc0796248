// Minimal image headers of each format (tests of image-info and image tokens), with the size where the format keeps it.

export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

export function jpegHeader(width: number, height: number, exifBytes = 0): Uint8Array {
  const app1 =
    exifBytes > 0
      ? [0xff, 0xe1, ((exifBytes + 2) >> 8) & 0xff, (exifBytes + 2) & 0xff, ...new Array(exifBytes).fill(0)]
      : [];
  const sof = [
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return Uint8Array.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    ...app1,
    ...sof,
  ]);
}

export function gifHeader(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    0x47,
    0x49,
    0x46,
    0x38,
    0x39,
    0x61,
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0,
    0,
    0,
  ]);
}

function riff(chunk: string, body: number[]): Uint8Array {
  const bytes = new Uint8Array(40);
  bytes.set([
    ...Array.from("RIFF", (c) => c.charCodeAt(0)),
    0,
    0,
    0,
    0,
    ...Array.from(`WEBP${chunk}`, (c) => c.charCodeAt(0)),
  ]);
  bytes.set(body, 20); // after the chunk's size (16-19), its data
  return bytes;
}

export function webpHeader(kind: "VP8 " | "VP8L" | "VP8X", width: number, height: number): Uint8Array {
  if (kind === "VP8X") {
    const w = width - 1;
    const h = height - 1;
    return riff(kind, [0x10, 0, 0, 0, w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16]);
  }
  if (kind === "VP8L") {
    const bits = (width - 1) | ((height - 1) << 14);
    return riff(kind, [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff]);
  }
  return riff(kind, [0, 0, 0, 0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8]);
}
