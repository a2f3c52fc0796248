/**
 * The two handlers both routes share, given the store: GET answers the session's stored history
 * (and sets the session cookie on the first visit), POST runs one turn with `streamText`, the
 * store being the source of truth, or goes on with a turn that waited for a tool approval. Runs in Node and on the edge alike.
 */
import {
  convertToModelMessages,
  convertToUIMessages,
  InvalidMessageError,
  streamText,
  tool,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { cookies } from "next/headers";
import { z } from "zod";
import { MAX_MESSAGE_BYTES } from "./limits";
import { chatModel } from "./model";
import { newSession, readSession, SESSION_COOKIE, signSession } from "./session";

declare const EdgeRuntime: string | undefined;

/** Which runtime answered, as a response header: "edge" in an edge route, "nodejs" otherwise. */
const runtimeHeader = { "x-agentcore-runtime": typeof EdgeRuntime === "string" ? "edge" : "nodejs" };

/** The stored history of this browser's session (and a session cookie on the first visit). */
export async function getHistory(store: MemoryStore): Promise<Response> {
  const jar = await cookies();
  let session = await readSession(jar.get(SESSION_COOKIE)?.value);
  if (!session) {
    session = newSession();
    jar.set(SESSION_COOKIE, await signSession(session), { httpOnly: true, sameSite: "lax", path: "/" });
  }
  return Response.json(convertToUIMessages(await store.getMessages(session.sessionId)), { headers: runtimeHeader });
}

/** One turn: the new user message from the body, the history from the store, the answer streamed. */
export async function postMessage(request: Request, store: MemoryStore): Promise<Response> {
  const session = await readSession((await cookies()).get(SESSION_COOKIE)?.value);
  // Refusals are plain text: useChat shows a failed response's body as the error's message.
  if (!session) return new Response("No session: load the page first.", { status: 401 });

  let messages: AgentMessage[];
  let trigger: "submit-message" | "regenerate-message" | undefined;
  let messageId: string | undefined;
  try {
    const body = (await request.json()) as { messages?: unknown; trigger?: unknown; messageId?: unknown };
    // The one size limit the page also checks before sending (lib/limits.ts).
    messages = convertToModelMessages(body.messages, { maxBytes: MAX_MESSAGE_BYTES });
    if (body.trigger !== undefined && body.trigger !== "submit-message" && body.trigger !== "regenerate-message")
      throw new Error("bad trigger");
    if (body.messageId !== undefined && typeof body.messageId !== "string") throw new Error("bad messageId");
    trigger = body.trigger;
    messageId = body.messageId;
  } catch (error) {
    // An InvalidMessageError's publicMessage says what was wrong with the sender's message.
    const message = InvalidMessageError.isInstance(error)
      ? (error.publicMessage ?? error.message)
      : 'The request body must be JSON: { messages: UIMessage[], trigger?: "submit-message" | "regenerate-message", messageId?: string }.';
    return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }

  const result = streamText({
    // useChat's regenerate() sends trigger "regenerate-message": the stored answer is replaced by a
    // new one (atomically, under the session lock); messageId says which turn.
    trigger,
    ...(messageId === undefined ? {} : { messageId }),
    model: chatModel(),
    system: "You are a friendly assistant. Save lasting preferences with remember_fact.",
    // The page sends only its last message: the new user message, or the assistant message
    // carrying the user's answers to tool approvals. The store holds the history.
    messages,
    sessionId: session.sessionId,
    userId: session.userId,
    memoryStore: store,
    memory: "sliding_window",
    // sliding_window keeps the last 20 turns (a turn: a user message and everything that answers
    // it, tool calls included), not 20 messages.
    maxMessages: 20,
    // Each turn's context report (what the model saw, what was trimmed) goes to the store, for the
    // inspector: `npx agentcore inspect --store file:.agentcore/nextjs-chat.json` (README).
    recordContext: true,
    enableMemoryTools: true,
    maxSteps: 3,
    tools: {
      get_weather: tool({
        description: "Current weather in a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, temperature: "21°C", condition: "Clear" }),
      }),
      // Each call waits for the user's Approve / Deny in the page (docs/approvals.md): the run
      // stops, the pending call is kept in the store, and the answer comes in the next request. A
      // new message sent instead denies it (pendingApprovals: "deny", the default) and is answered.
      book_table: tool({
        description: "Book a restaurant table (asks the user's approval first)",
        parameters: z.object({ guests: z.number().int().min(1).max(20), time: z.string() }),
        needsApproval: true,
        execute: async ({ guests, time }) => ({ guests, time, reference: `T-${guests}-${time.replace(/\W+/g, "")}` }),
      }),
    },
  });
  // A failure is logged once on the server (streamText's default onError), and the page is shown
  // the error's publicMessage when agentcore wrote one for users ("The model could not be
  // reached…"), "An error occurred." otherwise.
  return result.toUIMessageStreamResponse({ headers: runtimeHeader });
}
