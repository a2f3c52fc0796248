/**
 * The reconnect handler (GET on `<api>/<chat id>/stream`, what `useChat({ resume: true })` asks when
 * the page loads): the chat's running answer, replayed from its first chunk and followed live to its
 * end, so a page reloaded mid-answer shows it once, whole; 204 when nothing runs. The turn's POST
 * records its stream (`streamText({ resumable: true })`, lib/handlers.ts). Another user's chat is a
 * 404, as on the other routes.
 */
import { resumeStream, type MemoryStore } from "agentcore";
import { currentSession, ownChat, refusal } from "./chats";

export async function resumeAnswer(request: Request, store: MemoryStore, id: string): Promise<Response> {
  const session = await currentSession(false);
  // No cookie: no chat of this visitor's can be running.
  if (!session) return new Response(null, { status: 204 });
  const { chatId, refused } = await ownChat(store, session, id);
  if (refused) return refused;
  try {
    // userId: checked again by resumeStream before anything is read.
    return await resumeStream({
      sessionId: chatId,
      userId: session.userId,
      memoryStore: store,
      signal: request.signal,
    });
  } catch (error) {
    return refusal(error, true);
  }
}
