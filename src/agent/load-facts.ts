import type { Fact } from "../stores/memory-store";
import { ordinaryFacts } from "../stores/working-memory-keys";
import type { AgentConfig } from "./agent-config";
import type { TurnRun } from "./turn-run";

/** The facts of this run's scope, when memory tools are on (else none). */
export async function loadFacts(config: AgentConfig, run: TurnRun): Promise<Fact[]> {
  return run.factScopeId === undefined
    ? []
    : ordinaryFacts(await config.store.getFacts(run.factScopeId, run.sessionId));
}
