import { edgeStore, notConfigured } from "../../../../../lib/edge-store";
import { resumeAnswer } from "../../../../../lib/resume";

// The reconnect of app/api/chat-edge, on the edge runtime: reads the stream a turn on any instance recorded in Upstash.
export const runtime = "edge";
export const dynamic = "force-dynamic";

/** GET: useChat's reconnect when the page loads (lib/resume.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const store = edgeStore();
  return store ? resumeAnswer(request, store, (await params).id) : notConfigured();
}
