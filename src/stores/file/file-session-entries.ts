// The sessions of FileMemoryStore's state as the store returns them: one entry, or a page of a
// user's sessions read from the per-user index.
import type { SessionEntry, SessionPage } from "../memory-store";
import { compareListing, isAfter, sessionPage, type SessionPageQuery } from "../session-page-query";
import { emptyTotals } from "../usage-totals";
import type { FileState, SessionState } from "./file-state";

/** A page of a user's sessions from the per-user index (the user's sessions sorted, never every session). */
export function listFileSessions(state: FileState, query: SessionPageQuery): SessionPage {
  const sessions = state.owners.get(query.userId);
  if (!sessions) return { sessions: [] };
  const rows: SessionEntry[] = [];
  for (const id of sessions) {
    const session = state.sessions.get(id);
    // Cleared, pruned or created again by someone else since: no longer theirs.
    if (!session || session.userId !== query.userId) {
      sessions.delete(id);
      continue;
    }
    if (isAfter({ accessedAt: session.accessedAt, sessionId: id }, query.after)) rows.push(entryOf(id, session));
  }
  if (sessions.size === 0) state.owners.delete(query.userId);
  return sessionPage(rows.sort(compareListing), query.limit);
}

export function entryOf(sessionId: string, session: SessionState): SessionEntry {
  return {
    sessionId,
    createdAt: session.createdAt,
    accessedAt: session.accessedAt,
    messageCount: session.messages.length,
    ...(session.agentName === undefined ? {} : { agentName: session.agentName }),
    ...(session.tags === undefined ? {} : { tags: [...session.tags] }),
    ...(session.userId === undefined ? {} : { userId: session.userId }),
    ...(session.title === undefined ? {} : { title: session.title }),
    ...(session.metadata === undefined ? {} : { metadata: structuredClone(session.metadata) }),
    ...(session.preview === undefined ? {} : { preview: session.preview }),
    usage: session.usage ? { ...session.usage } : emptyTotals(),
  };
}
