/**
 * A Next.js App Router route handler (app/api/chat/route.ts) behind a `useChat` page.
 *
 * The session id comes from the server's own knowledge of who is asking: here a signed cookie
 * set at login, verified by `sessionFromRequest`. Never take it from the request body.
 */
import { convertToModelMessages, convertToUIMessages, streamText, tool } from "agentcore";
import { z } from "zod";
import { createChatStore, scriptedModel, sessionFromRequest } from "./shared";

const memoryStore = createChatStore();

export async function POST(request: Request): Promise<Response> {
  const session = await sessionFromRequest(request);
  if (!session) return new Response("Sign in first.", { status: 401 });

  const body = (await request.json()) as { messages?: unknown };
  let messages;
  try {
    messages = convertToModelMessages(body.messages); // untrusted: validated, typed errors
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }

  const result = streamText({
    model: process.env.OPENAI_API_KEY ? "openai/gpt-4o-mini" : scriptedModel(),
    system: "You are a helpful assistant.",
    messages, // with a store, only the new user message is taken from these
    sessionId: session.sessionId,
    userId: session.userId,
    memory: "full",
    memoryStore,
    enableMemoryTools: true,
    maxSteps: 3,
    tools: {
      get_weather: tool({
        description: "Current weather in a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, temperature: "22°C", condition: "Sunny" }),
      }),
    },
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse();
}

/** GET /api/chat: the stored history, for the page to show on load (useChat's initial messages). */
export async function GET(request: Request): Promise<Response> {
  const session = await sessionFromRequest(request);
  if (!session) return new Response("Sign in first.", { status: 401 });
  return Response.json(convertToUIMessages(await memoryStore.getMessages(session.sessionId)));
}
