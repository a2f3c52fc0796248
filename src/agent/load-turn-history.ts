import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import { ProviderHistory } from "./provider-history";
import { parseSessionHistory, readWholeLastTurn, type LoadedHistory } from "./session-history";
import type { TurnRun } from "./turn-run";

/** The history a run works on, and the `agent.memory()` provider it came from, if it did. */
export interface LoadedTurnHistory {
  history: LoadedHistory;
  /** Set when the history is a provider's (`agent.memory()`): written back after the run. */
  provided?: ProviderHistory;
  /**
   * The store's history without its messages' metadata (only a model sees it, which never gets
   * metadata): this parses the same read again with it, for a retried request's replay.
   */
  withMetadata?: () => LoadedHistory;
}

/** Whether the run's history is the `agent.memory()` provider's (then the store holds no messages of it). */
export function readsProvider(config: AgentConfig, run: TurnRun): boolean {
  return config.historyProvider !== undefined && run.history === undefined;
}

/**
 * The load phase: the history given to the run (stateless `streamText`), else the `agent.memory()`
 * provider's, else the store's as the turn read it (the tail the strategy needs), its messages'
 * metadata left out.
 */
export async function loadTurnHistory(config: AgentConfig, run: TurnRun, turn: StoreTurn): Promise<LoadedTurnHistory> {
  if (run.history) return { history: run.history };
  if (readsProvider(config, run)) {
    const provided = await ProviderHistory.load(config, run);
    return { history: provided.history, provided };
  }
  const read = await readWholeLastTurn(await turn.tail({ stored: true }), (limit) =>
    turn.tail({ limit, stored: true }),
  );
  return {
    history: parseSessionHistory(config.store, run.sessionId, read, undefined, false),
    withMetadata: () => parseSessionHistory(config.store, run.sessionId, read),
  };
}
