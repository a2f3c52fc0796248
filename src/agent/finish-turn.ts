import { NoObjectGeneratedError } from "../errors/no-object-generated-error";
import type { AgentConfig } from "./agent-config";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { rememberTurn } from "./remember-turn";
import type { TurnState } from "./start-turn";
import type { TurnRun } from "./turn-run";

/**
 * The end of a run that did not fail: a run with `output` that reached `maxSteps` without an object
 * throws `NoObjectGeneratedError`; else the rest of the turn is persisted (the last append), written
 * back to an `agent.memory()` provider, remembered, and told as `run:end`. Returns the result.
 */
export async function* finishTurn(
  config: AgentConfig,
  run: TurnRun,
  state: TurnState,
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const { log } = state;
  if (run.output && !log.hasObject) {
    const stoppedBy = log.stoppedBy;
    throw new NoObjectGeneratedError({
      reason: stoppedBy ? "stopped" : "max-steps",
      text: "",
      attempts: 0,
      usage: log.totalUsage,
      sessionId: run.sessionId,
      message: stoppedBy
        ? `No object generated: stopWhen (${stoppedBy.condition}) stopped the run while the model was still calling tools.`
        : `No object generated: the run reached maxSteps (${config.maxSteps}) while the model was still calling tools.`,
    });
  }
  const write = run.trace?.memoryWrite(log.messages.length);
  await log.persist({ last: true });
  await state.provided?.persist(config, run, log.messages);
  await rememberTurn(config, run, log.added);
  write?.end();
  state.title?.commit();
  // Its payload copies the history: built only when a listener or the stream takes it.
  if (run.notifier.tells("run:end"))
    yield* run.notifier.tell({ type: "run:end", ...log.outcome(state.startedAt, state.history.messages) });
  return log.result();
}
