/**
 * The Stop button's handler (DELETE on the chat's route): stops this browser's running turn,
 * wherever it runs (another request, another server instance on the same store). The turn's POST
 * is not tied to its request's signal, so a reload or a dropped connection lets the answer finish
 * and be stored; only this stops it. What was streamed until then is stored as the answer, marked
 * `finishReason: "stopped"`, and the session is free for the next message at once.
 */
import { stopRun, type MemoryStore } from "agentcore";
import { cookies } from "next/headers";
import { readSession, SESSION_COOKIE } from "./session";

export async function stopAnswer(store: MemoryStore): Promise<Response> {
  const session = await readSession((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) return new Response("No session: load the page first.", { status: 401 });
  // The session from the signed cookie, never from the request: a user stops only their own turn.
  await stopRun({ sessionId: session.sessionId, memoryStore: store });
  return new Response(null, { status: 204 });
}
