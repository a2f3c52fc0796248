/**
 * The Stop handler (POST on the chat route's `stop` segment, `?id=<chat>`): stops the user's running
 * turn in that chat, wherever it runs (another request, another server instance on the same store).
 * The turn's POST is not tied to its request's signal, so a reload or a dropped connection lets the
 * answer finish and be stored; only this stops it. What was streamed until then is stored as the
 * answer, marked `finishReason: "stopped"`, and the chat is free for the next message at once.
 */
import { stopRun, type MemoryStore } from "agentcore";
import { assertOwnChat, chatIdOf, currentSession, refusal } from "./chats";

export async function stopAnswer(request: Request, store: MemoryStore): Promise<Response> {
  const session = await currentSession(false);
  if (!session) return Response.json({ error: "No session: load the page first." }, { status: 401 });
  const chatId = chatIdOf(new URL(request.url).searchParams.get("id"), session);
  if (!chatId) return Response.json({ error: "Not a chat id." }, { status: 400 });
  try {
    // A user stops only their own chat's turn.
    await assertOwnChat(store, chatId, session.userId);
  } catch (error) {
    return refusal(error, true);
  }
  await stopRun({ sessionId: chatId, memoryStore: store });
  return new Response(null, { status: 204 });
}
