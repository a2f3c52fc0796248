import type { MemoryRecord } from "../providers/memory-provider";
import type { Fact } from "../stores/memory-store";
import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import { readsProvider } from "./load-turn-history";
import type { ProviderHistory } from "./provider-history";
import type { LoadedHistory } from "./session-history";
import type { PendingTitle } from "./pending-title";
import { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";

/** What `runTurn`'s steps share: the history read, then fitted step by step, and what the turn has produced. */
export interface TurnState {
  startedAt: number;
  /** What the turn has produced so far, appended to the turn step by step. */
  log: TurnLog;
  /** The history the run read (empty until it has), then the one the last step's window was fitted on. */
  history: LoadedHistory;
  /** Set when the history is an `agent.memory()` provider's: written back after the run. */
  provided?: ProviderHistory | undefined;
  facts: Fact[];
  recalled: MemoryRecord[];
  /** The session's title being generated (`generateTitle`), on its first turn. */
  title?: PendingTitle | undefined;
}

/**
 * The start of a run: tells `run:start` and opens the turn's log, on the store's turn, or on none
 * when a provider given to `agent.memory()` holds the history instead of the store.
 */
export function startTurn(config: AgentConfig, run: TurnRun, turn: StoreTurn): TurnState {
  const startedAt = Date.now();
  run.notifier.notify({
    type: "run:start",
    ...(run.input === undefined ? {} : { input: run.input }),
    ...(run.approvals.length > 0 ? { approvals: [...run.approvals] } : {}),
    ...(run.userId ? { userId: run.userId } : {}),
  });
  const log = new TurnLog(readsProvider(config, run) ? undefined : turn, run, {
    model: config.model,
    pricing: config.pricing,
  });
  return { startedAt, log, history: { messages: [], offset: 0, partial: false }, facts: [], recalled: [] };
}
