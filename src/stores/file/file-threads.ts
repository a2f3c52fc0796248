// The thread writes of FileMemoryStore that read the state before they write (docs/threads.md): a
// generated title, and a user's data deleted. Each is one journal line built under the store's
// write lock, so what it read is what it changes.
import { validateSessionId } from "../../messages/session-id";
import { checkUsage, type UsageTotals, type UserDataDeletion } from "../usage-totals";
import type { FileStoreEngine } from "./file-store-engine";

/**
 * Sets a generated `title` on a session that exists and has none, with `usage` added to the
 * ledger in the same line; resolves to whether it was written. Fenced like the session's appends.
 */
export async function titleFileSession(
  engine: FileStoreEngine,
  sessionId: string,
  title: string,
  usage: UsageTotals | undefined,
): Promise<boolean> {
  validateSessionId(sessionId);
  if (usage !== undefined) checkUsage(usage, "FileMemoryStore.titleSession");
  let written = false;
  await engine.write(
    "updateSession",
    sessionId,
    (state) => {
      const session = state.sessions.get(sessionId);
      written = session !== undefined && session.title === undefined;
      if (!written) return undefined;
      return { op: "title", session: sessionId, title, at: Date.now(), ...(usage ? { usage } : {}) };
    },
    { fenced: true },
  );
  return written;
}

/**
 * Deletes every session `userId` owns (from the per-user index) with its messages, summaries,
 * context reports and `session:<id>` facts, then the user's facts and totals: one journal line, so
 * a crash leaves all of it or none. A run still holding one of the sessions is not stopped: its
 * later append creates the session again, ownerless (nothing of it counts for the user).
 */
export async function deleteFileUserData(engine: FileStoreEngine, userId: string): Promise<UserDataDeletion> {
  validateSessionId(userId, "userId");
  let deleted: UserDataDeletion = { sessions: 0, messages: 0, facts: 0 };
  await engine.write("deleteUserData", undefined, (state) => {
    deleted = { sessions: 0, messages: 0, facts: 0 };
    const sessions: string[] = [];
    for (const id of state.owners.get(userId) ?? []) {
      const session = state.sessions.get(id);
      if (session?.userId !== userId) continue;
      sessions.push(id);
      deleted.sessions++;
      deleted.messages += session.messages.length;
      deleted.facts += state.facts.get(`session:${id}`)?.size ?? 0;
    }
    deleted.facts += state.facts.get(`user:${userId}`)?.size ?? 0;
    const anything = sessions.length > 0 || deleted.facts > 0 || state.ledger.has(userId) || state.owners.has(userId);
    return anything ? { op: "forget", userId, sessions } : undefined;
  });
  return deleted;
}
