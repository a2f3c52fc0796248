import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart } from "./agent-result";
import { loadFacts } from "./load-facts";
import { runStep } from "./run-step";
import { shouldStop } from "./should-stop";
import type { TurnState } from "./start-turn";
import { throwIfAborted } from "./throw-if-aborted";
import type { TurnRun } from "./turn-run";

/**
 * fit → call → tools, up to `maxSteps`: each step whole in the log. Stops when the model answers
 * without tool calls, a step's calls await approval, or a `stopWhen` condition (the run's, else the
 * agent's) says so after a step whose calls ran (that step whole in the log, so the pairing rule
 * holds); the facts are read again after a tool that changed them. `state.history` becomes the one
 * the last window was fitted on.
 */
export async function* stepLoop(
  config: AgentConfig,
  run: TurnRun,
  turn: StoreTurn,
  state: TurnState,
): AsyncGenerator<AgentStreamPart, void> {
  const { log, provided } = state;
  const stopWhen = run.stopWhen ?? config.stopWhen;
  for (let stepNumber = 1; stepNumber <= config.maxSteps; stepNumber++) {
    throwIfAborted(run);
    const step = yield* runStep(config, run, {
      stepNumber,
      history: state.history,
      context: provided?.context,
      facts: state.facts,
      recalled: state.recalled,
      log,
      storeTurn: run.history || provided ? undefined : turn,
    });
    state.history = step.history;
    if (step.factsChanged) state.facts = await loadFacts(config, run);
    if (step.approvals.length > 0) log.awaitApproval(step.approvals);
    if (step.done) break;
    if (stopWhen) {
      const stoppedBy = await shouldStop(stopWhen, log);
      if (stoppedBy) {
        log.stopBy(stoppedBy);
        break;
      }
    }
  }
}
