import { AbortError } from "../errors/abort-error";
import type { AgentConfig } from "./agent-config";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { loadFacts } from "./load-facts";
import { newId } from "./new-id";
import { ProviderHistory } from "./provider-history";
import { recallMemories } from "./recall-memories";
import { rememberTurn } from "./remember-turn";
import { runStep } from "./run-step";
import { loadSessionHistory, type LoadedHistory } from "./session-history";
import { throwIfAborted } from "./throw-if-aborted";
import { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";
import type { MessageTail } from "../stores/memory-store";

/** What the run holds of its session when it starts. */
export interface TurnSession {
  /** The run holds the store's session lock (the agent releases it after the run, unless the last append did). */
  locked: boolean;
  /** The stored tail, already read with the lock (`lockSessionReadingTail`), and the strategy's `historyLimit` it was read for. */
  tail?: { read: MessageTail; limit: number };
}

/**
 * One run: load (the store's history, or the `agent.memory()` provider's) → recall → persist the
 * user message → (fit → call → tools)* → persist the turn (to the store, or the provider).
 * Yields stream parts and returns the result. On abort or failure, the user message and every
 * completed step stay stored (each step whole, so the pairing rule holds) and the error is thrown.
 */
export async function* runTurn(
  config: AgentConfig,
  run: TurnRun,
  session: TurnSession = { locked: false },
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const startedAt = Date.now();
  run.notifier.notify({ type: "run:start", input: run.input, ...(run.userId ? { userId: run.userId } : {}) });
  // With a provider given to `agent.memory()`, it holds the history instead of the store.
  const fromProvider = config.historyProvider !== undefined && run.history === undefined;
  const log = new TurnLog(fromProvider ? undefined : config.store, run);
  let provided: ProviderHistory | undefined;
  let history: LoadedHistory = { messages: [], offset: 0, partial: false };
  try {
    throwIfAborted(run);
    // The limit the tail was read for, when it was read with the lock (a strategy's limit may have moved since).
    const limit = session.tail?.limit ?? config.strategy.historyLimit;
    const read = run.trace?.memoryRead();
    if (fromProvider) provided = await ProviderHistory.load(config, run);
    history =
      run.history ??
      provided?.history ??
      (await loadSessionHistory(config.store, run.sessionId, {
        ...(limit === undefined ? {} : { limit }),
        ...(session.tail ? { read: session.tail.read } : {}),
      }));
    let facts = await loadFacts(config, run);
    if (read)
      run.trace!.endMemoryRead(read, {
        messages: history.messages.length,
        partial: history.partial,
        facts: facts.length,
      });
    const recalled = [...(provided?.recalled ?? []), ...(await recallMemories(config, run))];
    run.notifier.notify({
      type: "memory:read",
      messageCount: history.messages.length,
      factCount: facts.length,
      recalledCount: recalled.length,
    });
    log.add({ id: newId(), role: "user", content: run.input, timestamp: Date.now() });
    // Stored before the model is called (a crash keeps it); its fsync may ride on the run's last append, which every path below makes.
    await log.persist({ deferSync: true });

    for (let stepNumber = 1; stepNumber <= config.maxSteps; stepNumber++) {
      throwIfAborted(run);
      const step = yield* runStep(config, run, {
        stepNumber,
        history,
        context: provided?.context,
        facts,
        recalled,
        log,
      });
      history = step.history;
      if (step.factsChanged) facts = await loadFacts(config, run);
      if (step.done) break;
    }

    const write = run.trace?.memoryWrite(log.messages.length);
    // The last append also releases the store's lock (one round trip), unless something after it still needs the session.
    await log.persist({ unlock: session.locked && !provided && !config.memoryProvider });
    await provided?.persist(config, run, log.messages);
    await rememberTurn(config, run, log.messages);
    write?.end();
    yield* run.notifier.tell({ type: "run:end", ...log.outcome(startedAt, history.messages) });
    return log.result();
  } catch (thrown) {
    const error =
      run.abortSignal?.aborted && !AbortError.isInstance(thrown)
        ? new AbortError({ sessionId: run.sessionId, cause: thrown })
        : thrown;
    const write = run.trace?.memoryWrite(log.messages.length);
    await log.persistOrReport();
    await provided?.persistOrReport(config, run, log.messages);
    write?.end();
    run.notifier.notify({
      type: "run:end",
      ...log.outcome(startedAt, history.messages),
      finishReason: AbortError.isInstance(error) ? "aborted" : "error",
      error,
    });
    throw error;
  }
}
