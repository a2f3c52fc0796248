import { convertToModelMessages, convertToUIMessages, InvalidMessageError, streamText, tool } from "agentcore";
import { cookies } from "next/headers";
import { z } from "zod";
import { chatModel, chatStore, newSession, readSession, SESSION_COOKIE, signSession } from "../../../lib/chat";

export const dynamic = "force-dynamic";

/** The stored history of this browser's session (and a session cookie on the first visit). */
export async function GET(): Promise<Response> {
  const jar = await cookies();
  let session = readSession(jar.get(SESSION_COOKIE)?.value);
  if (!session) {
    session = newSession();
    jar.set(SESSION_COOKIE, signSession(session), { httpOnly: true, sameSite: "lax", path: "/" });
  }
  return Response.json(convertToUIMessages(await chatStore().getMessages(session.sessionId)));
}

export async function POST(request: Request): Promise<Response> {
  const session = readSession((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) return Response.json({ error: "No session: load the page first." }, { status: 401 });

  let messages;
  try {
    const body = (await request.json()) as { messages?: unknown };
    messages = convertToModelMessages(body.messages);
  } catch (error) {
    const message = InvalidMessageError.isInstance(error) ? error.message : "The request body must be JSON: { messages: UIMessage[] }.";
    return Response.json({ error: message }, { status: 400 });
  }

  const result = streamText({
    model: chatModel(),
    system: "You are a friendly assistant. Save lasting preferences with remember_fact.",
    messages, // only the new user message is used: the store holds the history
    sessionId: session.sessionId,
    userId: session.userId,
    memoryStore: chatStore(),
    memory: "sliding_window",
    maxMessages: 20,
    enableMemoryTools: true,
    maxSteps: 3,
    tools: {
      get_weather: tool({
        description: "Current weather in a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, temperature: "21°C", condition: "Clear" }),
      }),
    },
  });
  return result.toUIMessageStreamResponse();
}
