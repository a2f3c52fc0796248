import type { RunStoppedBy } from "./agent-result";
import type { StopCondition } from "./stop-conditions";
import type { TurnLog } from "./turn-log";

/**
 * The run's `stopWhen` conditions asked after a step whose tool calls ran (in order; the first that
 * says true stops the run): which one stopped it, or undefined to go on.
 */
export async function shouldStop(
  conditions: readonly StopCondition[],
  log: TurnLog,
): Promise<RunStoppedBy | undefined> {
  const state = { steps: log.steps, lastStep: log.steps.at(-1)!, usage: log.totalUsage };
  for (let index = 0; index < conditions.length; index++) {
    const condition = conditions[index]!;
    if ((await condition(state)) === true) return { condition: condition.name || `stopWhen[${index}]`, index };
  }
  return undefined;
}
