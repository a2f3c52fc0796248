import { deleteChat, getHistory, postMessage } from "../../../lib/handlers";
import { edgeStore, notConfigured } from "../../../lib/edge-store";

// The same chat as app/api/chat, on the edge runtime, on the Upstash store (lib/edge-store.ts).
export const runtime = "edge";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const store = edgeStore();
  return store ? getHistory(request, store) : notConfigured();
}

export async function POST(request: Request): Promise<Response> {
  const store = edgeStore();
  return store ? postMessage(request, store) : notConfigured();
}

export async function DELETE(request: Request): Promise<Response> {
  const store = edgeStore();
  return store ? deleteChat(request, store) : notConfigured();
}
