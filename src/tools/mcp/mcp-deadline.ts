import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { MCPServerRequests } from "./mcp-server-requests";

/** The longest timer setTimeout keeps (a longer one fires at once): given to the SDK so only our own timer counts. */
export const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * Aborts `controller` with a request timeout once the server has taken `timeoutMs` on a call.
 * While the client answers the server's own requests (a model sampling, a user answering an
 * elicitation), the clock stops: that time is the user's, not the server's.
 */
export function startDeadline(
  timeoutMs: number,
  requests: MCPServerRequests,
  controller: AbortController,
): { stop: () => void } {
  let remaining = timeoutMs;
  let startedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    startedAt = Date.now();
    timer = setTimeout(
      () => controller.abort(new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: timeoutMs })),
      remaining,
    );
  };
  const pause = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    remaining = Math.max(0, remaining - (Date.now() - startedAt));
  };
  const watch = requests.onPause((paused) => (paused ? pause() : run()));
  if (!watch.paused) run();
  return {
    stop: () => {
      watch.stop();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
