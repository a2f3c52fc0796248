import type { FilePart } from "../messages/content-parts";
import { dataContentBytes, isRemoteUrl } from "../messages/data-content";
import { leadingBytes } from "../messages/image-info";

/**
 * Input tokens of a file part, an estimate (docs/messages.md, "Token accounting"): providers turn
 * a PDF into text and an image per page, and publish no exact rule.
 */

/** Tokens of one PDF page: Anthropic documents 1,500 to 3,000 text tokens a page, plus the page's image. */
export const PDF_PAGE_TOKENS = 2_000;
/** A PDF whose pages cannot be counted (compressed object streams): one page per this many bytes. */
const PDF_BYTES_PER_PAGE = 100 * 1024;
/** A file given by a remote URL (its size is unknown): a 2-page PDF. */
export const DEFAULT_FILE_TOKENS = 4_000;
/** Text files (`text/*`, JSON, XML, CSV…) are sent as text: about 4 bytes a token. */
const TEXT_BYTES_PER_TOKEN = 4;
/** Any other file (audio, archives…): one token per KiB, at least 85. */
const OTHER_BYTES_PER_TOKEN = 1024;

const textMediaType = /^(text\/|application\/(json|xml|csv|javascript|x-ndjson|yaml|x-yaml)\b|[^;]*\+(json|xml)\b)/i;

/**
 * Estimated tokens of a file part: a PDF at `PDF_PAGE_TOKENS` a page (pages counted from its
 * `/Type /Page` objects, else its size at 100 KiB a page); text at 4 bytes a token; anything else
 * one token per KiB; a remote URL `DEFAULT_FILE_TOKENS`.
 */
export function filePartTokens(part: FilePart): number {
  if (isRemoteUrl(part.data)) return DEFAULT_FILE_TOKENS;
  const bytes = dataContentBytes(part.data);
  const mediaType = part.mediaType.toLowerCase();
  if (mediaType === "application/pdf") return PDF_PAGE_TOKENS * pdfPages(part, bytes);
  if (textMediaType.test(mediaType)) return Math.ceil(bytes / TEXT_BYTES_PER_TOKEN);
  return Math.max(85, Math.ceil(bytes / OTHER_BYTES_PER_TOKEN));
}

const pageObject = /\/Type\s*\/Page(?![A-Za-z])/g;

function pdfPages(part: FilePart, size: number): number {
  const bytes = leadingBytes(part.data, Number.POSITIVE_INFINITY);
  let pages = 0;
  if (bytes !== undefined) {
    const text = new TextDecoder("latin1").decode(bytes);
    pages = text.match(pageObject)?.length ?? 0;
  }
  return pages > 0 ? pages : Math.max(1, Math.ceil(size / PDF_BYTES_PER_PAGE));
}
