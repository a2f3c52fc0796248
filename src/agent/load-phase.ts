import type { StoreTurn } from "../stores/store-turn";
import type { AgentConfig } from "./agent-config";
import { loadFacts } from "./load-facts";
import { loadTurnHistory } from "./load-turn-history";
import { recallMemories } from "./recall-memories";
import { findRetriedTurn, type RetriedTurn } from "./retried-turn";
import type { TurnState } from "./start-turn";
import type { TurnRun } from "./turn-run";
import { userMessageId } from "./user-message-id";

/** What the load phase found: a retried request to answer from the store, or the new user message's id. */
export type Loaded = { replay: RetriedTurn; inputId?: undefined } | { replay?: undefined; inputId: string | undefined };

/**
 * Load and recall: the history (`loadTurnHistory`) into `state`; a request sent twice runs once, so
 * a stored user message with this id and content is returned to be answered from the store, before
 * anything else is read. Else the new user message's id, checked against the history before anything
 * runs or is stored, the facts, and the provider's recalled memories, told as `memory:read`.
 */
export async function loadPhase(config: AgentConfig, run: TurnRun, turn: StoreTurn, state: TurnState): Promise<Loaded> {
  const read = run.trace?.memoryRead();
  const { history, provided, withMetadata } = await loadTurnHistory(config, run, turn);
  state.history = history;
  state.provided = provided;
  const retried = findRetriedTurn(run, history);
  if (retried !== undefined && retried !== "reused") {
    // The stored answer is replayed with its metadata: the same read, parsed with it.
    const stored = withMetadata ? findRetriedTurn(run, withMetadata()) : retried;
    return { replay: stored !== undefined && stored !== "reused" ? stored : retried };
  }
  const inputId = run.input === undefined || run.userMessage ? undefined : userMessageId(run, history, retried);
  state.facts = await loadFacts(config, run);
  await run.workingMemory?.refresh();
  if (read)
    run.trace!.endMemoryRead(read, {
      messages: history.messages.length,
      partial: history.partial,
      facts: state.facts.length,
    });
  state.recalled = [
    ...(provided?.recalled ?? []),
    ...(await recallMemories(config, run, (usage, model) =>
      state.log.addSpent({ inputTokens: usage.inputTokens, outputTokens: 0, totalTokens: usage.inputTokens }, model),
    )),
  ];
  run.notifier.notify({
    type: "memory:read",
    messageCount: history.messages.length,
    factCount: state.facts.length,
    recalledCount: state.recalled.length,
  });
  return { inputId };
}
