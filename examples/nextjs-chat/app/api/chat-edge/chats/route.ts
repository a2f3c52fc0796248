import { listChats } from "../../../../lib/chats";
import { edgeStore, notConfigured } from "../../../../lib/edge-store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The signed-in user's chats on the Upstash store, newest first. */
export async function GET(): Promise<Response> {
  const store = edgeStore();
  return store ? listChats(store) : notConfigured();
}
