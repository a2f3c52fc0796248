import type { ResolvedTelemetry } from "./resolve-telemetry";
import { RunTrace, type TracedAgent, type TracedResult, type TracedRun } from "./run-trace";

/**
 * Runs `turn` inside the run's `invoke_agent` span (waiting for the session included), with
 * `run.trace` set for the phases to start their spans on. The span, and any span of a phase still
 * open, always ends: with the result, with the error (an abort marked as one), or as cancelled
 * when the generator is closed before the run finished.
 */
export async function* traceRun<Run extends TracedRun, Part, Result extends TracedResult>(
  config: TracedAgent & { telemetry: ResolvedTelemetry },
  run: Run,
  turn: (run: Run & { trace: RunTrace }) => AsyncGenerator<Part, Result>,
): AsyncGenerator<Part, Result> {
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
