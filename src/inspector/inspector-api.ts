// The JSON endpoints of the inspector, on the store backend (`backendOf`: the one place that knows which
// optional methods a store has) and the recall provider.
import { AgentCoreError } from "../errors/agent-core-error";
import { errorText } from "../errors/error-text";
import type { AgentMessage } from "../messages/agent-message";
import { validateSessionId } from "../messages/session-id";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import type { StoreBackend } from "../stores/store-backend";
import type { SessionEntry } from "../stores/memory-store";
import { ordinaryFacts } from "../stores/working-memory-keys";
import { storedWorkingMemory } from "../tools/working-memory-profile";
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

/** Messages per page of a session: by default, and at most. */
export const DEFAULT_MESSAGE_PAGE = 200;
export const MAX_MESSAGE_PAGE = 1000;

/**
 * GET api/session?id=&limit=&before=: a page of a session's messages (the newest `limit`, or the
 * `limit` before index `before`) with their total, and its context reports, summaries, facts
 * per scope and working memory per scope (its fields and recent changes, docs/working-memory.md). Read as runs read a session: a tail, so the newest page costs the same whatever the
 * session's length.
 */
export async function sessionDetail(store: StoreBackend, url: URL): Promise<Response> {
  const sessionId = sessionParameter(url, "id");
  const limit = Math.min(
    MAX_MESSAGE_PAGE,
    Math.max(1, pageNumber(url.searchParams.get("limit"), DEFAULT_MESSAGE_PAGE)),
  );
  const before = pageNumber(url.searchParams.get("before"), -1);
  const [page, entry, reports, summaries] = await Promise.all([
    before < 0 ? newestMessages(store, sessionId, limit) : messageRange(store, sessionId, before - limit, before),
    store.getSession(sessionId),
    store.getContextReports(sessionId),
    store.getSummaries(sessionId),
  ]);
  const users = [...new Set(reports.flatMap((report) => (report.userId ? [report.userId] : [])))];
  const scopes = [`session:${sessionId}`, ...users.map((user) => `user:${user}`)];
  const facts = await Promise.all(
    scopes.map(async (scope) => ({ scope, all: await store.getFacts(scope, sessionId).catch(() => []) })),
  );
  return json({
    session: entry ?? { sessionId, messageCount: page.total },
    total: page.total,
    start: page.start,
    messages: page.messages.map((message, at) => messageView(message, page.start + at)),
    reports,
    summaries,
    facts: facts.map(({ scope, all }) => ({ scope, facts: ordinaryFacts(all) })),
    // The working memory of each scope that holds one: its fields and recent changes (docs/working-memory.md).
    workingMemory: facts.flatMap(({ scope, all }) => {
      const stored = storedWorkingMemory(all);
      return stored ? [{ scope, ...stored }] : [];
    }),
  });
}

/** Messages of a session from index `start` on, with the session's total. */
interface MessagePage {
  messages: AgentMessage[];
  start: number;
  total: number;
}

async function newestMessages(store: StoreBackend, sessionId: string, limit: number): Promise<MessagePage> {
  const tail = await store.getMessageTail(sessionId, limit);
  return { messages: tail.messages, start: tail.total - tail.messages.length, total: tail.total };
}

/**
 * Messages [from, to) of a session: read as a range where the store reads one (its cost grows with
 * the page, never with the session). Otherwise the tail that starts at `from` (its cost grows with
 * the distance from the end, never with what lies before `from`); appends or cuts between the two
 * reads are found from the total the second one reports: the page then starts where the tail does.
 */
async function messageRange(store: StoreBackend, sessionId: string, from: number, to: number): Promise<MessagePage> {
  const start = Math.max(0, from);
  if (store.capabilities.getMessageRange && store.capabilities.getMessageTail) {
    const { total } = await store.getMessageTail(sessionId, 0);
    if (start >= Math.min(to, total)) return { messages: [], start: Math.min(start, total), total };
    const messages = await store.getMessageRange(sessionId, start, Math.min(to, total));
    return { messages, start, total: Math.max(total, start + messages.length) };
  }
  if (!store.capabilities.getMessageTail) {
    // A store that reads no tail reads everything anyway: once.
    const all = await store.getMessages(sessionId);
    return { messages: all.slice(start, Math.max(start, to)), start: Math.min(start, all.length), total: all.length };
  }
  const { total } = await store.getMessageTail(sessionId, 1);
  if (start >= Math.min(to, total)) return { messages: [], start: Math.min(start, total), total };
  const tail = await store.getMessageTail(sessionId, total - start);
  const first = tail.total - tail.messages.length;
  const at = Math.max(start, first);
  return { messages: tail.messages.slice(at - first, Math.max(at, to) - first), start: at, total: tail.total };
}

/** GET api/part?session=&message=&part=: the bytes of a stored image or file part (a tail read from its message). */
export async function partContent(store: StoreBackend, url: URL): Promise<Response> {
  const sessionId = sessionParameter(url, "session");
  const messageIndex = pageNumber(url.searchParams.get("message"), -1);
  const partIndex = pageNumber(url.searchParams.get("part"), -1);
  const page = messageIndex < 0 ? undefined : await messageRange(store, sessionId, messageIndex, messageIndex + 1);
  const message = page?.start === messageIndex ? page.messages[0] : undefined;
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
