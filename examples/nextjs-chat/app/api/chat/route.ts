import { deleteChat, getHistory, postMessage } from "../../../lib/handlers";
import { nodeStore } from "../../../lib/node-store";

export const dynamic = "force-dynamic";

/** GET ?id=<chat>: the chat's stored history (the cookie's first chat without an id). */
export async function GET(request: Request): Promise<Response> {
  return getHistory(request, nodeStore());
}

/** POST: one turn of the chat named by the body's `id`. */
export async function POST(request: Request): Promise<Response> {
  return postMessage(request, nodeStore());
}

/** DELETE ?id=<chat>: deletes one of the user's chats. */
export async function DELETE(request: Request): Promise<Response> {
  return deleteChat(request, nodeStore());
}
