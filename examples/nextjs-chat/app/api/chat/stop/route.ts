import { stopAnswer } from "../../../../lib/stop";
import { nodeStore } from "../../../../lib/node-store";

export const dynamic = "force-dynamic";

/** POST ?id=<chat>: the Stop button: stops the chat's running turn (lib/stop.ts). */
export async function POST(request: Request): Promise<Response> {
  return stopAnswer(request, nodeStore());
}
