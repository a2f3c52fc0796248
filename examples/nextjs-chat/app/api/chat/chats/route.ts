import { listChats } from "../../../../lib/chats";
import { nodeStore } from "../../../../lib/node-store";

export const dynamic = "force-dynamic";

/** The signed-in user's chats, newest first (the sidebar). */
export async function GET(): Promise<Response> {
  return listChats(nodeStore());
}
