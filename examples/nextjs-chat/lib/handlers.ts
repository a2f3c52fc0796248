/**
 * The handlers both routes share, given the store: GET answers a chat's stored history (and sets
 * the user's cookie on the first visit), POST runs one turn with `streamText`, the store being the
 * source of truth, or goes on with a turn that waited for a tool approval, DELETE deletes a chat.
 * Each checks that the chat is the cookie's user's (lib/chats.ts). Runs in Node and on the edge alike.
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
import { z } from "zod";
import { MAX_MESSAGE_BYTES } from "./limits";
import { chatModel } from "./model";
import { assertOwnChat, chatIdOf, currentSession, ownChat, refusal } from "./chats";

declare const EdgeRuntime: string | undefined;

/** Which runtime answered, as a response header: "edge" in an edge route, "nodejs" otherwise. */
const runtimeHeader = { "x-agentcore-runtime": typeof EdgeRuntime === "string" ? "edge" : "nodejs" };

/** The stored history of the chat `?id=` names (the user's first chat without it), with its id in `x-chat-id`. */
export async function getHistory(request: Request, store: MemoryStore): Promise<Response> {
  const session = (await currentSession(true))!;
  const { chatId, refused } = await ownChat(store, session, new URL(request.url).searchParams.get("id"));
  if (refused) return refused;
  return Response.json(convertToUIMessages(await store.getMessages(chatId)), {
    headers: { ...runtimeHeader, "x-chat-id": chatId, "cache-control": "no-store" },
  });
}

/**
 * Deletes the chat `?id=` names, if it is the user's: `clearMessages` removes its messages, its
 * facts (kept per session, under its id), its title and usage, and takes it out of the user's list.
 */
export async function deleteChat(request: Request, store: MemoryStore): Promise<Response> {
  const session = await currentSession(false);
  if (!session) return Response.json({ error: "No session: load the page first." }, { status: 401 });
  const { chatId, refused } = await ownChat(store, session, new URL(request.url).searchParams.get("id"));
  if (refused) return refused;
  await store.clearMessages(chatId);
  return new Response(null, { status: 204 });
}

/** One turn: the new user message from the body, the history from the store, the answer streamed. */
export async function postMessage(request: Request, store: MemoryStore): Promise<Response> {
  const session = await currentSession(false);
  // Refusals are plain text: useChat shows a failed response's body as the error's message.
  if (!session) return new Response("No session: load the page first.", { status: 401 });

  let messages: AgentMessage[];
  let trigger: "submit-message" | "regenerate-message" | undefined;
  let messageId: string | undefined;
  let chatId: string | undefined;
  try {
    const body = (await request.json()) as { id?: unknown; messages?: unknown; trigger?: unknown; messageId?: unknown };
    // useChat's id is the chat: one of the user's sessions (the cookie's first chat when absent).
    chatId = chatIdOf(body.id, session);
    if (!chatId) throw new Error("bad id");
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
      : 'The request body must be JSON: { id?: string, messages: UIMessage[], trigger?: "submit-message" | "regenerate-message", messageId?: string }.';
    return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  // Another user's chat is a 404 before anything runs; streamText's userId checks it again under the lock.
  try {
    await assertOwnChat(store, chatId, session.userId);
  } catch (error) {
    return refusal(error, false);
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
    sessionId: chatId,
    // The owner of a new chat, and the check on every turn: another user's run is a SessionOwnershipError.
    userId: session.userId,
    // After the first answer the chat gets a short title (another call to the model, in the
    // background); the stream announces it as a transient data-title part for the sidebar.
    generateTitle: true,
    memoryStore: store,
    // The stream's chunks are recorded as they are sent: a page reloaded mid-answer reattaches to it
    // (useChat's resume, answered by lib/resume.ts). The run is not tied to request.signal: a reload
    // or a dropped connection lets the answer finish and be stored; the Stop button stops it (lib/stop.ts).
    resumable: true,
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
