import type { MemoryStore, SummaryRecord } from "../stores/memory-store";

/**
 * Where summaries live when the store has no `getSummaries` / `saveSummary` (a custom store with
 * only the six required methods): in this process, per store object and session. They are lost
 * on restart, which costs one summariser call, never a message: the raw history is in the store.
 */
const fallbackByStore = new WeakMap<MemoryStore, Map<string, SummaryRecord[]>>();

/** Reads the summaries of a session: the store's own when it keeps them, else the fallback. */
export async function readSummaries(store: MemoryStore, sessionId: string): Promise<SummaryRecord[]> {
  if (typeof store.getSummaries === "function" && typeof store.saveSummary === "function") {
    return (await store.getSummaries(sessionId)) ?? [];
  }
  return fallbackByStore.get(store)?.get(sessionId) ?? [];
}

/** Commits a summary (only ever called after the summariser succeeded). */
export async function writeSummary(store: MemoryStore, sessionId: string, record: SummaryRecord): Promise<void> {
  if (typeof store.getSummaries === "function" && typeof store.saveSummary === "function") {
    await store.saveSummary(sessionId, record);
    return;
  }
  let sessions = fallbackByStore.get(store);
  if (!sessions) {
    sessions = new Map();
    fallbackByStore.set(store, sessions);
  }
  const records = sessions.get(sessionId) ?? [];
  if (!records.some((existing) => existing.id === record.id)) sessions.set(sessionId, [...records, record]);
}
