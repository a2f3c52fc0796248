import type { AgentConfig } from "./agent-config";
import type { RetriedTurn } from "./retried-turn";
import type { TurnState } from "./start-turn";
import type { TurnRun } from "./turn-run";
import { startTitle } from "./session-title";
import { persistUserMessage } from "./user-message-id";

/**
 * Persists the run's user message (the one given whole, or `run.input` under `inputId`) after the
 * approvals' answers, before the model is called: a crash keeps it. Its fsync may ride on the run's
 * last append, which every path after it makes. Returns the stored turn when the store shows the
 * request is a retry of it (`persistUserMessage`), for the run to answer with.
 */
export async function persistInput(
  config: AgentConfig,
  run: TurnRun,
  state: TurnState,
  inputId: string | undefined,
): Promise<RetriedTurn | undefined> {
  if (run.userMessage) state.log.add(run.userMessage);
  else if (run.input !== undefined)
    state.log.add({ id: inputId!, role: "user", content: run.input, timestamp: Date.now() });
  const retried = await persistUserMessage(config, run, state.history, state.log, inputId);
  // A new session's title is asked for beside the answer (written once the turn completed).
  if (!retried) {
    state.title = startTitle(config, run, state.history);
    if (state.title) run.onTitle?.(state.title);
  }
  return retried;
}
