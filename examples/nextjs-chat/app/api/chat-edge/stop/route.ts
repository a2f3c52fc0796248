import { edgeStore, notConfigured } from "../../../../lib/edge-store";
import { stopAnswer } from "../../../../lib/stop";

// The Stop of app/api/chat-edge, on the edge runtime: reaches a turn on any instance on the same Upstash database.
export const runtime = "edge";
export const dynamic = "force-dynamic";

/** POST ?id=<chat>: stops the chat's running turn (lib/stop.ts). */
export async function POST(request: Request): Promise<Response> {
  const store = edgeStore();
  return store ? stopAnswer(request, store) : notConfigured();
}
