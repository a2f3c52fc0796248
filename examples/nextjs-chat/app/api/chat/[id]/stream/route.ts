import { nodeStore } from "../../../../../lib/node-store";
import { resumeAnswer } from "../../../../../lib/resume";

export const dynamic = "force-dynamic";

/** GET: useChat's reconnect when the page loads: the chat's running answer, replayed and followed (lib/resume.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return resumeAnswer(request, nodeStore(), (await params).id);
}
