import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { FilePart, ImagePart } from "../messages/content-parts";
import { readImageInfo } from "../messages/image-info";
import { DEFAULT_MAX_PART_BYTES } from "../messages/message-limits";
import { CliError } from "./cli-error";

/**
 * A file given to `agentcore chat --attach` (or `/attach`) as a part of the user's next message:
 * an image (PNG, JPEG, GIF, WebP, recognised by its header) as an image part, a PDF (`%PDF-`) as
 * a file part with its name. Anything else, a missing file or one over the part limit is a
 * `CliError` that names the file and says what is accepted.
 */
export function readAttachment(path: string, flag = "--attach"): ImagePart | FilePart {
  let bytes: Uint8Array;
  try {
    const size = statSync(path);
    if (!size.isFile()) throw new CliError(`${flag} ${path}: not a file`);
    if (size.size > DEFAULT_MAX_PART_BYTES) {
      throw new CliError(
        `${flag} ${path}: ${size.size} bytes, over the ${DEFAULT_MAX_PART_BYTES}-byte limit of one attachment`,
      );
    }
    bytes = new Uint8Array(readFileSync(path));
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === "ENOENT"
        ? `${flag} ${path}: no such file`
        : `${flag} ${path}: cannot read it (${code ?? String(error)})`,
    );
  }
  if (bytes.byteLength === 0) throw new CliError(`${flag} ${path}: the file is empty`);
  const image = readImageInfo(bytes.subarray(0, 64 * 1024));
  if (image !== undefined) return { type: "image", image: bytes, mediaType: image.mediaType };
  if (new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-") {
    return { type: "file", data: bytes, mediaType: "application/pdf", filename: basename(path) };
  }
  throw new CliError(`${flag} ${path}: not an image (PNG, JPEG, GIF, WebP) or a PDF; only those can be attached`);
}
