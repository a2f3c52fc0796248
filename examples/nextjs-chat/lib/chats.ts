/**
 * The signed-in user's chats: who the user is (the signed cookie of lib/session.ts), which chat a
 * request names, whether it is theirs, and the sidebar's list. Runs in Node and on the edge alike.
 */
import { SessionOwnershipError, type MemoryStore } from "agentcore";
import { cookies } from "next/headers";
import { newSession, readSession, SESSION_COOKIE, signSession, type ChatSession } from "./session";

/** A chat as the sidebar shows it. */
export interface ChatSummary {
  id: string;
  /** Generated after the first answer (generateTitle); null until then. */
  title: string | null;
  /** The last message's first characters. */
  preview: string;
  /** Last activity, ms since epoch. */
  updatedAt: number;
}

/** The browser's user (and first chat), from the signed cookie; made and set on a first visit when `create`. */
export async function currentSession(create: boolean): Promise<ChatSession | undefined> {
  const jar = await cookies();
  const session = await readSession(jar.get(SESSION_COOKIE)?.value);
  if (session || !create) return session;
  const made = newSession();
  jar.set(SESSION_COOKIE, await signSession(made), { httpOnly: true, sameSite: "lax", path: "/" });
  return made;
}

/** The ids the page makes for new chats (`chat-` and a UUID): anything else is refused. */
const CHAT_ID = /^chat-[A-Za-z0-9-]{1,64}$/;

/** The chat a request names (`id`), the cookie's first chat when it names none, undefined when the id is malformed. */
export function chatIdOf(id: unknown, session: ChatSession): string | undefined {
  if (id === undefined || id === null || id === "") return session.sessionId;
  return typeof id === "string" && CHAT_ID.test(id) ? id : undefined;
}

/**
 * Throws `SessionOwnershipError` when the chat exists and is not this user's. A chat that does
 * not exist yet is a new one (the "New chat" button): its first turn makes it the user's.
 * `streamText({ userId })` checks it again under the session's lock, so a race changes nothing.
 */
export async function assertOwnChat(store: MemoryStore, chatId: string, userId: string): Promise<void> {
  const entry = await store.getSession?.(chatId);
  if (entry && entry.userId !== userId) throw new SessionOwnershipError({ sessionId: chatId, userId });
}

/**
 * The answer to a request for a chat that is not the user's: 404, the same as a chat that does
 * not exist, so that ids of other users' chats cannot be probed. Other errors are rethrown.
 */
export function refusal(error: unknown, json: boolean): Response {
  if (!SessionOwnershipError.isInstance(error)) throw error;
  const message = "This chat does not exist, or it is not yours.";
  return json
    ? Response.json({ error: message }, { status: 404 })
    : new Response(message, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The chat `id` names (the user's first chat without one), if it is theirs: its id, or the answer
 * refusing it (400 for a malformed id, 404 for another user's chat: `refusal`). What every route
 * that takes a chat id asks first.
 */
export async function ownChat(
  store: MemoryStore,
  session: ChatSession,
  id: unknown,
): Promise<{ chatId: string; refused?: undefined } | { chatId?: undefined; refused: Response }> {
  const chatId = chatIdOf(id, session);
  if (!chatId) return { refused: Response.json({ error: "Not a chat id." }, { status: 400 }) };
  try {
    await assertOwnChat(store, chatId, session.userId);
  } catch (error) {
    return { refused: refusal(error, true) };
  }
  return { chatId };
}

/** GET: the user's chats, newest activity first (the first 50: a longer list would page with `nextCursor`). */
export async function listChats(store: MemoryStore): Promise<Response> {
  const session = await currentSession(false);
  if (!session) return Response.json({ chats: [] });
  if (!store.listSessions) return Response.json({ error: "This store cannot list sessions." }, { status: 501 });
  const { sessions } = await store.listSessions({ userId: session.userId, limit: 50 });
  const chats: ChatSummary[] = sessions.map((entry) => ({
    id: entry.sessionId,
    title: entry.title ?? null,
    preview: entry.preview ?? "",
    updatedAt: entry.accessedAt,
  }));
  return Response.json({ chats }, { headers: { "cache-control": "no-store" } });
}
