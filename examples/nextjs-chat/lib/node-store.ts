import { FileMemoryStore, type MemoryStore } from "agentcore";

/**
 * The app's store in the Node runtime: a JSON file that survives restarts (CHAT_STORE_PATH,
 * default ./.agentcore/nextjs-chat.json), kept across hot reloads in development. Behind several
 * server instances use RedisMemoryStore or PostgresMemoryStore instead.
 */
export function nodeStore(): MemoryStore {
  const holder = globalThis as { agentcoreChatStore?: MemoryStore };
  holder.agentcoreChatStore ??= new FileMemoryStore({
    path: process.env.CHAT_STORE_PATH ?? ".agentcore/nextjs-chat.json",
  });
  return holder.agentcoreChatStore;
}
