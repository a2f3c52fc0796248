// The JSON endpoints of the inspector, on the store backend (`backendOf`: the one place that knows which
// optional methods a store has) and the recall provider.
import { AgentCoreError } from "../errors/agent-core-error";
import { errorText } from "../errors/error-text";
import { validateSessionId } from "../messages/session-id";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import type { StoreBackend } from "../stores/store-backend";
import type { SessionEntry } from "../stores/memory-store";
import { messageView, partBytes } from "./inspector-views";
import { json, jsonError, secureResponse } from "./inspector-responses";

/** Sessions per page of the list, at most. */
export const MAX_PAGE_SIZE = 200;

/** GET api/sessions?q=&offset=&limit=: the sessions, newest activity first, filtered and paged. */
export async function listSessions(store: StoreBackend, url: URL): Promise<Response> {
  if (!store.capabilities.entries)
    return jsonError(501, `The ${store.name} cannot list its sessions (it has no entries()).`);
  const query = (url.searchParams.get("q") ?? "").trim().toLowerCase();
  const offset = pageNumber(url.searchParams.get("offset"), 0);
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, pageNumber(url.searchParams.get("limit"), 50)));
  const all = await store.entries();
  const matching = query ? all.filter((entry) => matches(entry, query)) : all;
  matching.sort((a, b) => b.accessedAt - a.accessedAt || (a.sessionId < b.sessionId ? -1 : 1));
  return json({ sessions: matching.slice(offset, offset + limit), total: matching.length, offset, limit });
}

function matches(entry: SessionEntry, query: string): boolean {
  return (
    entry.sessionId.toLowerCase().includes(query) ||
    (entry.agentName?.toLowerCase().includes(query) ?? false) ||
    (entry.tags?.some((tag) => tag.toLowerCase().includes(query)) ?? false)
  );
}

function pageNumber(text: string | null, fallback: number): number {
  const value = text === null ? Number.NaN : Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

/** GET api/session?id=: one session's messages, context reports, summaries and facts per scope. */
export async function sessionDetail(store: StoreBackend, url: URL): Promise<Response> {
  const sessionId = sessionParameter(url, "id");
  const [messages, entry, reports, summaries] = await Promise.all([
    store.getMessages(sessionId),
    store.getSession(sessionId),
    store.getContextReports(sessionId),
    store.getSummaries(sessionId),
  ]);
  const users = [...new Set(reports.flatMap((report) => (report.userId ? [report.userId] : [])))];
  const scopes = [`session:${sessionId}`, ...users.map((user) => `user:${user}`)];
  const facts = await Promise.all(
    scopes.map(async (scope) => ({ scope, facts: await store.getFacts(scope, sessionId).catch(() => []) })),
  );
  return json({
    session: entry ?? { sessionId, messageCount: messages.length },
    messages: messages.map(messageView),
    reports,
    summaries,
    facts,
  });
}

/** GET api/part?session=&message=&part=: the bytes of a stored image or file part. */
export async function partContent(store: StoreBackend, url: URL): Promise<Response> {
  const sessionId = sessionParameter(url, "session");
  const messageIndex = pageNumber(url.searchParams.get("message"), -1);
  const partIndex = pageNumber(url.searchParams.get("part"), -1);
  const message = (await store.getMessages(sessionId))[messageIndex];
  const found = message ? partBytes(message, partIndex) : undefined;
  if (!found) return jsonError(404, "No such part.");
  return secureResponse(found.bytes as BodyInit, 200, {
    "content-type": found.mediaType,
    "content-disposition": found.inline ? "inline" : `attachment; filename="part-${messageIndex}-${partIndex}"`,
  });
}

/** GET api/recall?session=&q=&user=: what the provider would recall for a query, with its scores. */
export async function recall(provider: RecallMemoryProvider | undefined, url: URL): Promise<Response> {
  if (!provider) return jsonError(404, "No memory provider was given to the inspector.");
  const sessionId = sessionParameter(url, "session");
  const query = url.searchParams.get("q") ?? "";
  const userId = url.searchParams.get("user") || undefined;
  const limit = Math.min(50, Math.max(1, pageNumber(url.searchParams.get("limit"), 5)));
  const records = await provider.read({ sessionId, ...(userId ? { userId } : {}), query, limit });
  return json({
    provider: provider.type,
    records: (Array.isArray(records) ? records : []).map((record) => ({
      id: String(record.id),
      content: String(record.content),
      ...(typeof record.score === "number" ? { score: record.score } : {}),
    })),
  });
}

/** POST api/delete?id=: clears a session (only with `allowDelete`). */
export async function deleteSession(store: StoreBackend, url: URL): Promise<Response> {
  const sessionId = sessionParameter(url, "id");
  await store.clearMessages(sessionId);
  return json({ deleted: sessionId });
}

/** A session id from the query, validated (a bad one is a 400 through `apiError`). */
function sessionParameter(url: URL, name: string): string {
  return validateSessionId(url.searchParams.get(name) ?? "", name);
}

/** A failure of an endpoint as JSON: typed errors by their name and status, others as 500. */
export function apiError(error: unknown): Response {
  if (AgentCoreError.isInstance(error)) {
    const status = error.name === "InvalidArgumentError" ? 400 : 500;
    return json({ error: error.message, name: error.name }, status);
  }
  return jsonError(500, errorText(error));
}
