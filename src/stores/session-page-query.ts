// `listSessions`: its options checked once, its opaque cursor (a position: the last session a page
// gave, by `accessedAt` then `sessionId`), and a page cut from sessions in listing order. Shared by
// every built-in store.
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { validateSessionId } from "../messages/session-id";
import type { ListSessionsOptions, SessionEntry, SessionPage } from "./memory-store";

/** Most sessions one page may ask for. */
export const MAX_SESSION_PAGE = 1000;
/** Sessions per page when `limit` is omitted. */
export const DEFAULT_SESSION_PAGE = 20;

/** Where a page starts: after the session at (`accessedAt`, `sessionId`) in listing order. */
export interface SessionPosition {
  accessedAt: number;
  sessionId: string;
}

/** `listSessions`'s options, checked. */
export interface SessionPageQuery {
  userId: string;
  limit: number;
  /** The page starts strictly after this position; undefined: the first page. */
  after: SessionPosition | undefined;
}

/** Checks `listSessions`'s options (an `InvalidArgumentError` naming the bad one). */
export function sessionPageQuery(options: ListSessionsOptions): SessionPageQuery {
  if (options == null || typeof options !== "object") {
    throw new InvalidArgumentError({
      argument: "options",
      value: options,
      message: "listSessions() takes { userId, limit?, cursor? }.",
    });
  }
  const userId = validateSessionId(options.userId, "userId");
  const limit = options.limit ?? DEFAULT_SESSION_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SESSION_PAGE) {
    throw new InvalidArgumentError({
      argument: "limit",
      value: limit,
      message: `limit must be an integer from 1 to ${MAX_SESSION_PAGE}, got ${String(limit)}.`,
    });
  }
  return { userId, limit, after: options.cursor === undefined ? undefined : decodeCursor(options.cursor) };
}

/** Whether `entry` comes strictly after `position` in listing order (newest first, then `sessionId` descending). */
export function isAfter(entry: SessionPosition, position: SessionPosition | undefined): boolean {
  if (!position) return true;
  return (
    entry.accessedAt < position.accessedAt ||
    (entry.accessedAt === position.accessedAt && entry.sessionId < position.sessionId)
  );
}

/** Listing order: `accessedAt` descending, then `sessionId` descending. */
export function compareListing(a: SessionPosition, b: SessionPosition): number {
  if (a.accessedAt !== b.accessedAt) return b.accessedAt - a.accessedAt;
  return a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0;
}

/**
 * The page of `limit` sessions from `rows`, which hold (in listing order, already after the cursor)
 * up to `limit + 1` sessions: the extra one only says there is a next page.
 */
export function sessionPage(rows: SessionEntry[], limit: number): SessionPage {
  const sessions = rows.slice(0, limit);
  const last = sessions[sessions.length - 1];
  return rows.length > limit && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions };
}

/** The opaque cursor of a position: base64url of `[accessedAt, sessionId]`. */
export function encodeCursor(position: SessionPosition): string {
  const bytes = new TextEncoder().encode(JSON.stringify([position.accessedAt, position.sessionId]));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(cursor: unknown): SessionPosition {
  const bad = () =>
    new InvalidArgumentError({
      argument: "cursor",
      value: cursor,
      message: "cursor must be the nextCursor of a listSessions() page.",
    });
  if (typeof cursor !== "string" || cursor.length === 0 || cursor.length > 2048) throw bad();
  let parsed: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "number" ||
    !Number.isFinite(parsed[0]) ||
    typeof parsed[1] !== "string"
  )
    throw bad();
  return { accessedAt: parsed[0], sessionId: parsed[1] };
}
