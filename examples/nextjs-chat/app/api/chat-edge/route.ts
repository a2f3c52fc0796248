import { Redis } from "@upstash/redis";
import { UpstashRedisMemoryStore } from "agentcore/upstash";
import { getHistory, postMessage } from "../../../lib/handlers";
import { stopAnswer } from "../../../lib/stop";

// The same chat as app/api/chat, on the edge runtime: no file system there, so the store is
// Redis over HTTP (agentcore/upstash with @upstash/redis).
export const runtime = "edge";
export const dynamic = "force-dynamic";

let store: UpstashRedisMemoryStore | undefined;

/** The store, or undefined when the Upstash REST URL and token are not set. */
function chatStore(): UpstashRedisMemoryStore | undefined {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  if (!url || !token) return undefined;
  store ??= new UpstashRedisMemoryStore({
    client: new Redis({ url, token }),
    prefix: process.env.CHAT_STORE_PREFIX ?? "nextjs-chat:",
  });
  return store;
}

function notConfigured(): Response {
  const error =
    "The edge route needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (your Upstash database's REST URL and token) in the server's environment.";
  return Response.json({ error }, { status: 500 });
}

export async function GET(): Promise<Response> {
  const chat = chatStore();
  return chat ? getHistory(chat) : notConfigured();
}

export async function POST(request: Request): Promise<Response> {
  const chat = chatStore();
  return chat ? postMessage(request, chat) : notConfigured();
}

/** The Stop button: stops the session's running turn (lib/stop.ts), on any instance on the same Upstash database. */
export async function DELETE(): Promise<Response> {
  const chat = chatStore();
  return chat ? stopAnswer(chat) : notConfigured();
}
