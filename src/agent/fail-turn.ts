import { AbortError } from "../errors/abort-error";
import type { AgentConfig } from "./agent-config";
import type { TurnState } from "./start-turn";
import type { TurnRun } from "./turn-run";

/**
 * The end of a run that threw: what the turn completed is stored (each step whole, so the pairing
 * rule holds; nothing for a regenerate or an edit; a failure to store is reported, not thrown over
 * the run's error), `run:end` is told
 * with finishReason "aborted" or "error", and the error to throw is returned: an `AbortError`
 * when the run's signal was aborted, whatever the step threw then.
 */
export async function failTurn(config: AgentConfig, run: TurnRun, state: TurnState, thrown: unknown): Promise<unknown> {
  const { log } = state;
  state.title?.abandon();
  const error =
    run.abortSignal?.aborted && !AbortError.isInstance(thrown)
      ? new AbortError({ sessionId: run.sessionId, cause: thrown })
      : thrown;
  const write = run.trace?.memoryWrite(log.messages.length);
  await log.persistOrReport();
  await state.provided?.persistOrReport(config, run, log.messages);
  write?.end();
  run.notifier.notify({
    type: "run:end",
    ...log.outcome(state.startedAt, state.history.messages),
    finishReason: AbortError.isInstance(error) ? "aborted" : "error",
    error,
  });
  return error;
}
