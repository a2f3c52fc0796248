import type { AgentConfig } from "../agent-config";
import type { AgentResult, AgentStreamPart } from "../agent-result";
import type { TurnRun } from "../turn-run";
import type { ResolvedTelemetry } from "./resolve-telemetry";
import { RunTrace } from "./run-trace";

/**
 * Runs `turn` inside the run's `invoke_agent` span (waiting for the session included), with
 * `run.trace` set for the phases to start their spans on. The span, and any span of a phase still
 * open, always ends: with the result, with the error (an abort marked as one), or as cancelled
 * when the generator is closed before the run finished.
 */
export async function* traceRun(
  config: AgentConfig & { telemetry: ResolvedTelemetry },
  run: TurnRun,
  turn: (run: TurnRun) => AsyncGenerator<AgentStreamPart, AgentResult>,
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const trace = await RunTrace.start(config.telemetry, config, run);
  let settled = false;
  try {
    const result = yield* turn({ ...run, trace });
    settled = true;
    trace.succeed(result);
    return result;
  } catch (error) {
    settled = true;
    trace.fail(error);
    throw error;
  } finally {
    if (!settled) trace.cancel();
  }
}
