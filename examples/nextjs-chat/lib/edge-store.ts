// The edge routes' store: no file system there, so it is Redis over HTTP (agentcore/upstash with
// @upstash/redis).
import { Redis } from "@upstash/redis";
import { UpstashRedisMemoryStore } from "agentcore/upstash";

let store: UpstashRedisMemoryStore | undefined;

/** The store, or undefined when the Upstash REST URL and token are not set. */
export function edgeStore(): UpstashRedisMemoryStore | undefined {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  if (!url || !token) return undefined;
  store ??= new UpstashRedisMemoryStore({
    client: new Redis({ url, token }),
    prefix: process.env.CHAT_STORE_PREFIX ?? "nextjs-chat:",
  });
  return store;
}

export function notConfigured(): Response {
  const error =
    "The edge route needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (your Upstash database's REST URL and token) in the server's environment.";
  return Response.json({ error }, { status: 500 });
}
