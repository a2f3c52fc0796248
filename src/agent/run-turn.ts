import { SessionLockLostError } from "../errors/session-lock-lost-error";
import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { failTurn } from "./fail-turn";
import { finishTurn } from "./finish-turn";
import { loadPhase } from "./load-phase";
import { persistInput } from "./persist-input";
import { replayTurn } from "./replay-turn";
import { startTurn } from "./start-turn";
import { stopTurn } from "./stop-turn";
import { stepLoop } from "./step-loop";
import { throwIfAborted } from "./throw-if-aborted";
import { answerApprovals } from "./tool-approvals";
import type { TurnRun } from "./turn-run";

/**
 * One run, on the session's turn in the store (its lock taken): load → recall → answer the calls
 * awaiting approval → persist the user message → (fit → call → tools)* → persist the turn →
 * remember (docs/architecture.md, "The run loop"); one named step each. Yields stream parts and
 * returns the result. A request sent twice runs once: answered from the store (`replayTurn`). On
 * abort or failure, the user message and every completed step stay stored (each step whole, so the
 * pairing rule holds) and the error is thrown; on a stop (`agent.stop`, `stopRun`), the text so far
 * is stored too and the run ends with finishReason "stopped" (`stopTurn`).
 */
export async function* runTurn(
  config: AgentConfig,
  run: TurnRun,
  turn: StoreTurn,
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const state = startTurn(config, run, turn);
  try {
    throwIfAborted(run);
    // load, recall (or answer a retried request from the store)
    const loaded = await loadPhase(config, run, turn, state);
    if (loaded.replay) return yield* replayTurn(run, loaded.replay, state.startedAt, state.history.messages);
    // answer the calls awaiting approval, if the session ends with some (none: no generator is built)
    const { pendingApprovals, messages } = state.history;
    const awaiting =
      pendingApprovals || run.approvals.length > 0
        ? yield* answerApprovals(config, run, pendingApprovals, messages, state.log)
        : [];
    // persist the user message (the store may show it is a retried request's)
    const stored = await persistInput(config, run, state, loaded.inputId);
    if (stored) return yield* replayTurn(run, stored, state.startedAt, state.history.messages);
    // fit → call → tools, up to maxSteps (none while calls still await approval)
    if (awaiting.length > 0) state.log.awaitApproval(awaiting);
    else yield* stepLoop(config, run, turn, state);
    // persist the rest of the turn; remember (a stop asked from now on changes nothing)
    run.stop?.finishing();
    return yield* finishTurn(config, run, state);
  } catch (thrown) {
    // stopped (agent.stop): the text so far kept, the turn stored as a finished one
    if (run.stop?.requested && !SessionLockLostError.isInstance(thrown)) return yield* stopTurn(config, run, state);
    throw await failTurn(config, run, state, thrown);
  }
}
