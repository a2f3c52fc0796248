/**
 * A Next.js App Router route handler (app/api/chat/route.ts) behind a `useChat` page.
 *
 * The session id comes from the server's own knowledge of who is asking: here a signed cookie
 * set at login, verified by `sessionFromRequest`. Never take it from the request body.
 */
import {
  convertToModelMessages,
  convertToUIMessages,
  InvalidMessageError,
  stopRun,
  streamText,
  tool,
  type LanguageModel,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { z } from "zod";
import { createChatStore, scriptedModel, sessionFromRequest } from "./shared";

const tools = {
  get_weather: tool({
    description: "Current weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temperature: "22°C", condition: "Sunny" }),
  }),
};

/** Builds the POST, GET and DELETE (Stop) handlers over one store and model (tests pass their own). */
export function createChatHandlers(options: { memoryStore: MemoryStore; model: () => string | LanguageModel }) {
  const { memoryStore } = options;

  async function POST(request: Request): Promise<Response> {
    const session = await sessionFromRequest(request);
    if (!session) return new Response("Sign in first.", { status: 401 });

    let messages: AgentMessage[];
    try {
      const body = (await request.json()) as { messages?: unknown };
      messages = convertToModelMessages(body.messages); // untrusted: validated, typed errors
    } catch (error) {
      const message = InvalidMessageError.isInstance(error)
        ? error.message
        : "The body must be JSON: { messages: UIMessage[] }.";
      return Response.json({ error: message }, { status: 400 });
    }
    if (messages.at(-1)?.role !== "user") {
      return Response.json({ error: "The last message must be the new user message." }, { status: 400 });
    }

    const result = streamText({
      model: options.model(),
      system: "You are a helpful assistant.",
      messages, // with a store, only the new user message is taken from these
      sessionId: session.sessionId,
      userId: session.userId,
      memory: "full",
      memoryStore,
      enableMemoryTools: true,
      maxSteps: 3,
      tools,
      // No `abortSignal: request.signal`: a reload or a dropped connection lets the answer finish
      // and be stored (some runtimes abort that signal on a disconnect). The Stop button is DELETE.
    });
    return result.toUIMessageStreamResponse();
  }

  /** GET /api/chat: the stored history, for the page to show on load (useChat's initial messages). */
  async function GET(request: Request): Promise<Response> {
    const session = await sessionFromRequest(request);
    if (!session) return new Response("Sign in first.", { status: 401 });
    return Response.json(convertToUIMessages(await memoryStore.getMessages(session.sessionId)));
  }

  /**
   * DELETE /api/chat: the page's Stop button (after useChat's `stop()`). Stops the session's running
   * turn wherever it runs: what was streamed is stored as the answer, marked stopped.
   */
  async function DELETE(request: Request): Promise<Response> {
    const session = await sessionFromRequest(request);
    if (!session) return new Response("Sign in first.", { status: 401 });
    await stopRun({ sessionId: session.sessionId, memoryStore });
    return new Response(null, { status: 204 });
  }

  return { POST, GET, DELETE };
}

export const { POST, GET, DELETE } = createChatHandlers({
  memoryStore: createChatStore(),
  model: () => (process.env.OPENAI_API_KEY ? "openai/gpt-4o-mini" : scriptedModel()),
});
