import { CorruptStoreError } from "../errors/corrupt-store-error";

/**
 * Parses the stored `tags` of a session (JSON: an array of strings). Anything else is a
 * `CorruptStoreError` naming the store, the session and where the metadata lives (`path`: a
 * key or a table), never a bare `SyntaxError`.
 */
export function parseSessionTags(
  text: string,
  where: { store: string; operation: string; sessionId: string; path: string },
): string[] {
  let tags: unknown;
  let cause: unknown;
  try {
    tags = JSON.parse(text);
  } catch (error) {
    cause = error;
  }
  if (Array.isArray(tags) && tags.every((tag) => typeof tag === "string")) return tags;
  throw new CorruptStoreError({
    store: where.store,
    operation: where.operation,
    sessionId: where.sessionId,
    path: where.path,
    message: `The ${where.store} holds corrupt metadata for session "${where.sessionId}" (${where.path}): its tags are not a JSON array of strings. Repair or delete that session's metadata.`,
    ...(cause === undefined ? {} : { cause }),
  });
}
