import { FileMemoryStore, type MemoryStore } from "agentcore";
import { getHistory, postMessage } from "../../../lib/handlers";
import { stopAnswer } from "../../../lib/stop";

export const dynamic = "force-dynamic";

/**
 * The app's store in the Node runtime: a JSON file that survives restarts (CHAT_STORE_PATH,
 * default ./.agentcore/nextjs-chat.json), kept across hot reloads in development. Behind several
 * server instances use RedisMemoryStore or PostgresMemoryStore instead.
 */
function chatStore(): MemoryStore {
  const holder = globalThis as { agentcoreChatStore?: MemoryStore };
  holder.agentcoreChatStore ??= new FileMemoryStore({
    path: process.env.CHAT_STORE_PATH ?? ".agentcore/nextjs-chat.json",
  });
  return holder.agentcoreChatStore;
}

export async function GET(): Promise<Response> {
  return getHistory(chatStore());
}

export async function POST(request: Request): Promise<Response> {
  return postMessage(request, chatStore());
}

/** The Stop button: stops the session's running turn (lib/stop.ts). */
export async function DELETE(): Promise<Response> {
  return stopAnswer(chatStore());
}
