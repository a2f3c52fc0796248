import type { AgentMessage } from "../messages/agent-message";
import type { StoreTurn } from "../stores/store-turn";
import type { MemoryStrategyContext, MemoryStrategyResult } from "../strategies/memory-strategy";
import { estimateMessagesTokens } from "../tokens/estimate-tokens";
import { sharedTokenCalibration } from "../tokens/token-calibration";
import { loadEncodingAsync, tokenizerFor } from "../tokens/tokenizer";
import type { AgentConfig } from "./agent-config";
import type { TurnRun } from "./turn-run";
import { applyStrategy, type LoadedHistory } from "./session-history";

/**
 * Fits the history read so far plus this run's messages into the window with the agent's
 * strategy, and tells `context:trimmed` when something was dropped or summarised.
 */
export async function fitWindow(
  config: AgentConfig,
  run: TurnRun,
  loaded: LoadedHistory,
  turn: readonly AgentMessage[],
  /** The run's turn, when the history is the store's: longer tails are read through it. */
  storeTurn?: StoreTurn,
  /** Told what the strategy's own model calls spent (a summariser's), for the usage ledger. */
  onUsage?: MemoryStrategyContext["onUsage"],
): Promise<{ window: MemoryStrategyResult; history: LoadedHistory }> {
  const { model, strategy } = config;
  const calibration = sharedTokenCalibration.ratio(model);
  const span = run.trace?.fit();
  const { result, history, messages } = await applyStrategy(
    strategy,
    config.store,
    run.sessionId,
    loaded,
    turn,
    {
      ...(config.systemPrompt ? { system: config.systemPrompt } : {}),
      model,
      ...(run.abortSignal ? { abortSignal: run.abortSignal } : {}),
      ...(calibration === undefined ? {} : { calibration }),
      onError: (error) =>
        run.notifier.notify({ type: "memory:error", source: strategy.name, operation: "apply", error }),
      ...(onUsage ? { onUsage } : {}),
    },
    storeTurn ? (limit) => storeTurn.tail({ limit, stored: true }) : undefined,
  );
  if (span) run.trace!.endFit(span, result);
  // Counting the history read (cached per message, still linear in it): done only when someone listens.
  if ((result.dropped.length > 0 || result.summary) && run.notifier.hasListeners("context:trimmed")) {
    await loadEncodingAsync(tokenizerFor(model).encoding);
    const tokensAfter = estimateMessagesTokens(result.messages, { model });
    run.notifier.notify({
      type: "context:trimmed",
      tokensBefore: estimateMessagesTokens(messages, { model }),
      tokensAfter,
      calibratedTokensAfter: Math.ceil(tokensAfter * (calibration ?? 1)),
      ...(calibration === undefined ? {} : { calibration }),
      ...(result.budget === undefined ? {} : { budget: result.budget }),
      strategy: strategy.name,
      droppedCount: result.dropped.length,
      droppedMessageIds: result.dropped.flatMap((message) => (message.id ? [message.id] : [])),
      keptCount: result.messages.length,
      summarized: Boolean(result.summary),
    });
  }
  return { window: result, history };
}
