/** Helpers of the Next.js route example: the session from a signed cookie, a store, an offline model. */
import { createHmac, timingSafeEqual } from "node:crypto";
import { InMemoryStore, contentText, type MemoryStore } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const secret = process.env.SESSION_SECRET ?? "dev-only-secret-change-me";

/** Signs `sessionId.userId` for a cookie value (done at login). */
export function signSession(sessionId: string, userId: string): string {
  const payload = Buffer.from(JSON.stringify({ sessionId, userId })).toString("base64url");
  const signature = createHmac("sha256", secret).update(payload).digest("base64url");
  return `${payload}.${signature}`;
}

/** Reads and verifies the `chat_session` cookie; undefined when missing or forged. */
export async function sessionFromRequest(request: Request): Promise<{ sessionId: string; userId: string } | undefined> {
  const cookie = request.headers.get("cookie") ?? "";
  const value = /(?:^|;\s*)chat_session=([^;]+)/.exec(cookie)?.[1];
  if (!value) return undefined;
  const [payload, signature] = value.split(".");
  if (!payload || !signature) return undefined;
  const expected = createHmac("sha256", secret).update(payload).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sessionId: string; userId: string };
}

/** The store the route uses. In production: a Redis or PostgreSQL store shared by all instances. */
export function createChatStore(): MemoryStore {
  return new InMemoryStore();
}

/** An offline stand-in for a real model when no API key is set. */
export function scriptedModel(): MockLanguageModel {
  return new MockLanguageModel({
    responses: (call) => {
      const last = call.messages.at(-1);
      const text = last === undefined ? "" : contentText(last.content);
      if (last?.role === "user" && /weather/i.test(text)) {
        return {
          toolCalls: [{ name: "get_weather", arguments: { city: /in (\w+)/i.exec(text)?.[1] ?? "Tokyo" } }],
        };
      }
      if (last?.role === "tool") return { text: `Here is the weather: ${text}` };
      return { text: `You said: ${text}` };
    },
  });
}
