/**
 * The one size limit of a message, shared by the route and the page: the route passes it to
 * `convertToModelMessages` (a larger request is refused with a typed error), and the page checks
 * a message against it before sending, so an attachment that is too large never leaves the
 * browser and the message stays in the composer. Attachments travel as base64 `data:` URLs, a
 * third larger than the files. Imports nothing, so the page can import it.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Room kept for what the page adds around a message (its id, role, the request's fields). */
const ENVELOPE_BYTES = 2048;

/** The media types the attach button takes: images and PDFs, which every provider adapter sends as such. */
export const ACCEPTED_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"];

/** Bytes of `text` as UTF-8. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Whether a message of this text and these attachments (`data:` URLs) fits the limit, and if not,
 * by how much it is over, as a short sentence for the page.
 */
export function messageTooLarge(text: string, files: { url: string; filename?: string }[]): string | undefined {
  const bytes =
    ENVELOPE_BYTES +
    utf8Bytes(JSON.stringify(text)) +
    files.reduce((sum, file) => sum + utf8Bytes(JSON.stringify(file)), 0);
  if (bytes <= MAX_MESSAGE_BYTES) return undefined;
  return `This message is ${megabytes(bytes)} once encoded; the limit is ${megabytes(MAX_MESSAGE_BYTES)} (about ${megabytes((MAX_MESSAGE_BYTES * 3) / 4)} of attachments). Remove an attachment and send again.`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
