/**
 * The server side of the example: one store for the app, the session from a signed cookie,
 * and the model (a real provider when a key is set, the scripted model otherwise).
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { FileMemoryStore, type LanguageModel, type MemoryStore } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const secret = process.env.SESSION_SECRET ?? "dev-only-secret-change-me";
export const SESSION_COOKIE = "agentcore_chat";

/**
 * The app's store: a JSON file that survives restarts (CHAT_STORE_PATH, default
 * ./.agentcore/nextjs-chat.json), kept across hot reloads in development. Behind several
 * server instances use RedisMemoryStore or PostgresMemoryStore instead.
 */
export function chatStore(): MemoryStore {
  const holder = globalThis as { agentcoreChatStore?: MemoryStore };
  holder.agentcoreChatStore ??= new FileMemoryStore({ path: process.env.CHAT_STORE_PATH ?? ".agentcore/nextjs-chat.json" });
  return holder.agentcoreChatStore;
}

export interface ChatSession {
  sessionId: string;
  userId: string;
}

export function signSession(session: ChatSession): string {
  const payload = Buffer.from(JSON.stringify(session)).toString("base64url");
  return `${payload}.${createHmac("sha256", secret).update(payload).digest("base64url")}`;
}

export function readSession(cookieValue: string | undefined): ChatSession | undefined {
  if (!cookieValue) return undefined;
  const [payload, signature] = cookieValue.split(".");
  if (!payload || !signature) return undefined;
  const expected = createHmac("sha256", secret).update(payload).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as ChatSession;
}

export function newSession(): ChatSession {
  return { sessionId: `chat-${randomUUID()}`, userId: `user-${randomUUID()}` };
}

/** "openai/gpt-4o-mini" with OPENAI_API_KEY, "anthropic/…" with ANTHROPIC_API_KEY, else the script. */
export function chatModel(): string | LanguageModel {
  if (process.env.OPENAI_API_KEY) return process.env.CHAT_MODEL ?? "openai/gpt-4o-mini";
  if (process.env.ANTHROPIC_API_KEY) return process.env.CHAT_MODEL ?? "anthropic/claude-3-5-haiku";
  return scriptedModel();
}

/**
 * The offline model: remembers what the user asks it to remember (through remember_fact),
 * calls get_weather for weather questions, and answers from the facts in its system prompt.
 */
function scriptedModel(): MockLanguageModel {
  return new MockLanguageModel({
    chunkSize: 3,
    chunkDelayMs: 5,
    responses: (call) => {
      const last = call.messages.at(-1);
      if (last?.role === "tool") {
        return { text: last.name === "remember_fact" ? "Got it, I will remember that." : `Here is the weather: ${last.content}` };
      }
      const input = last?.content ?? "";
      const remember = /remember that my (.+?) is (.+?)[.!]?$/i.exec(input);
      if (remember) return { toolCalls: [{ name: "remember_fact", arguments: { key: remember[1]!, value: remember[2]! } }] };
      const weather = /weather in ([\p{L} ]+?)\??$/iu.exec(input);
      if (weather) return { toolCalls: [{ name: "get_weather", arguments: { city: weather[1]! } }] };
      const question = /what is my (.+?)\??$/i.exec(input);
      if (question) {
        const key = question[1]!.trim().toLowerCase().replace(/\s+/g, "_");
        const fact = new RegExp(`"${key}": "([^"]*)"`).exec(call.system ?? "");
        return { text: fact ? `Your ${question[1]} is ${fact[1]}.` : `I don't know your ${question[1]} yet.` };
      }
      return { text: `You said: ${input}` };
    },
  });
}
