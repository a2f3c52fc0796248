/** Content compared for de-duplication: case, accents, punctuation and spacing ignored; the whole text, never a prefix. */
export function normaliseContent(content: string): string {
  return content
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
