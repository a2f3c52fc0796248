/**
 * The Stop handler (POST on the chat route's `stop` segment, `?id=<chat>`): stops the user's running
 * turn in that chat, wherever it runs (another request, another server instance on the same store).
 * The turn's POST is not tied to its request's signal, so a reload or a dropped connection lets the
 * answer finish and be stored; only this stops it. What was streamed until then is stored as the
 * answer, marked `finishReason: "stopped"`, and the chat is free for the next message at once.
 */
import { stopRun, type MemoryStore } from "agentcore";
import { currentSession, ownChat } from "./chats";

export async function stopAnswer(request: Request, store: MemoryStore): Promise<Response> {
  const session = await currentSession(false);
  if (!session) return Response.json({ error: "No session: load the page first." }, { status: 401 });
  // A user stops only their own chat's turn.
  const { chatId, refused } = await ownChat(store, session, new URL(request.url).searchParams.get("id"));
  if (refused) return refused;
  await stopRun({ sessionId: chatId, memoryStore: store });
  return new Response(null, { status: 204 });
}
