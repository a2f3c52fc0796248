import type { AgentMessage } from "../messages/agent-message";
import { withTimeout } from "../providers/with-timeout";
import type { AgentConfig } from "./agent-config";
import type { TurnRun } from "./turn-run";

/** Gives the finished turn to the memory provider; a failure or timeout is told (`memory:error`), never thrown. */
export async function rememberTurn(config: AgentConfig, run: TurnRun, turn: AgentMessage[]): Promise<void> {
  const provider = config.memoryProvider;
  if (!provider) return;
  try {
    await withTimeout(
      (abortSignal) =>
        provider.write(turn, {
          sessionId: run.sessionId,
          ...(run.userId ? { userId: run.userId } : {}),
          ...(config.name ? { agentName: config.name } : {}),
          abortSignal,
        }),
      { ms: config.memoryProviderTimeoutMs, provider: provider.type, operation: "write" },
    );
  } catch (error) {
    run.notifier.notify({ type: "memory:error", source: provider.type, operation: "write", error });
  }
}
