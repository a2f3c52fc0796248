import type { ImagePart } from "../messages/content-parts";
import { leadingBytes, readImageInfo } from "../messages/image-info";

/**
 * Input tokens of images (docs/messages.md, "Token accounting"), by each provider's published rule
 * from the image's size, read from its PNG, JPEG, GIF or WebP header.
 */

/** Whose rule counts an image: OpenAI's, Anthropic's, or the larger of the two (any other model). */
export type ImageTokenRule = "openai" | "anthropic" | "max";

/** An image's tokens under each rule. */
export interface ImageTokens {
  openai: number;
  anthropic: number;
}

/**
 * Tokens of an image whose size is unknown (a remote URL, a format without a readable header):
 * at least what either provider charges for its largest image (OpenAI 768×2048: 1,445; Anthropic
 * about 1,600), so a window that counts it still fits.
 */
export const DEFAULT_IMAGE_TOKENS = 1_600;

/**
 * OpenAI's rule (GPT-4o, GPT-4.1, GPT-5 and o-series, `detail: "high"`): the image is scaled to fit
 * 2048×2048, then so that its shortest side is at most 768; each 512×512 tile costs 170 tokens,
 * plus 85 for the image.
 */
export function openAIImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  if (w > 2048 || h > 2048) {
    const scale = 2048 / Math.max(w, h);
    w *= scale;
    h *= scale;
  }
  if (Math.min(w, h) > 768) {
    const scale = 768 / Math.min(w, h);
    w *= scale;
    h *= scale;
  }
  return 85 + 170 * Math.ceil(Math.floor(w) / 512) * Math.ceil(Math.floor(h) / 512);
}

/** Anthropic's cap: an image over about 1,600 tokens (1.15 megapixels) is scaled down first. */
const ANTHROPIC_MAX_IMAGE_TOKENS = 1_600;

/**
 * Anthropic's rule: the image is scaled so its long side is at most 1568 pixels (and to at most
 * about 1,600 tokens), then costs width × height / 750 tokens.
 */
export function anthropicImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  if (Math.max(w, h) > 1568) {
    const scale = 1568 / Math.max(w, h);
    w *= scale;
    h *= scale;
  }
  return Math.min(ANTHROPIC_MAX_IMAGE_TOKENS, Math.ceil((Math.floor(w) * Math.floor(h)) / 750));
}

const unknownImage: ImageTokens = Object.freeze({ openai: DEFAULT_IMAGE_TOKENS, anthropic: DEFAULT_IMAGE_TOKENS });

/** Tokens of an image part under each rule: from its header, or `DEFAULT_IMAGE_TOKENS` when its size is unknown. */
export function imagePartTokens(part: ImagePart): ImageTokens {
  // PNG, GIF and WebP say their size in the first 30 bytes; JPEG after its metadata segments.
  let bytes = leadingBytes(part.image, 4096);
  if (bytes === undefined) return unknownImage;
  let info = readImageInfo(bytes);
  if (info?.mediaType === "image/jpeg" && info.width === undefined) {
    bytes = leadingBytes(part.image);
    info = bytes === undefined ? undefined : readImageInfo(bytes);
  }
  const { width, height } = info ?? {};
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return unknownImage;
  return { openai: openAIImageTokens(width, height), anthropic: anthropicImageTokens(width, height) };
}

/** The tokens of `tokens` under `rule`. */
export function imageTokensFor(tokens: ImageTokens, rule: ImageTokenRule): number {
  return rule === "max" ? Math.max(tokens.openai, tokens.anthropic) : tokens[rule];
}
