import { AbortError } from "../errors/abort-error";
import { NoObjectGeneratedError } from "../errors/no-object-generated-error";
import type { AgentConfig } from "./agent-config";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { loadFacts } from "./load-facts";
import { recallMemories } from "./recall-memories";
import { rememberTurn } from "./remember-turn";
import { replayTurn } from "./replay-turn";
import { findRetriedTurn } from "./retried-turn";
import { runStep } from "./run-step";
import { loadTurnHistory, readsProvider } from "./load-turn-history";
import type { ProviderHistory } from "./provider-history";
import type { LoadedHistory } from "./session-history";
import { throwIfAborted } from "./throw-if-aborted";
import { answerApprovals } from "./tool-approvals";
import { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";
import { persistUserMessage, userMessageId } from "./user-message-id";
import type { StoreTurn } from "../stores/store-turn";

/**
 * One run, on the session's turn in the store (its lock taken): load → recall → persist the user
 * message → (fit → call → tools)* → persist the turn → remember. Yields stream parts and returns
 * the result. On abort or failure, the user message and every completed step stay stored (each
 * step whole, so the pairing rule holds) and the error is thrown.
 */
export async function* runTurn(
  config: AgentConfig,
  run: TurnRun,
  turn: StoreTurn,
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const startedAt = Date.now();
  run.notifier.notify({
    type: "run:start",
    ...(run.input === undefined ? {} : { input: run.input }),
    ...(run.approvals.length > 0 ? { approvals: [...run.approvals] } : {}),
    ...(run.userId ? { userId: run.userId } : {}),
  });
  // With a provider given to `agent.memory()`, it holds the history instead of the store.
  const log = new TurnLog(readsProvider(config, run) ? undefined : turn, run);
  let history: LoadedHistory = { messages: [], offset: 0, partial: false };
  let provided: ProviderHistory | undefined;
  try {
    throwIfAborted(run);
    // load
    const read = run.trace?.memoryRead();
    ({ history, provided } = await loadTurnHistory(config, run, turn));
    // A request sent twice runs once: a stored user message with this id and content is answered from the store.
    const retried = findRetriedTurn(run, history);
    if (retried !== undefined && retried !== "reused")
      return yield* replayTurn(run, retried, startedAt, history.messages);
    // The new user message's id, checked against the history before anything runs or is stored.
    const inputId = run.input === undefined || run.userMessage ? undefined : userMessageId(run, history, retried);
    let facts = await loadFacts(config, run);
    if (read)
      run.trace!.endMemoryRead(read, {
        messages: history.messages.length,
        partial: history.partial,
        facts: facts.length,
      });
    // recall
    const recalled = [...(provided?.recalled ?? []), ...(await recallMemories(config, run))];
    run.notifier.notify({
      type: "memory:read",
      messageCount: history.messages.length,
      factCount: facts.length,
      recalledCount: recalled.length,
    });
    // answer the tool calls that await approval, if the session ends with some (docs/approvals.md)
    // (nothing to answer, the common case: no generator is built)
    const awaiting =
      history.pendingApprovals || run.approvals.length > 0
        ? yield* answerApprovals(config, run, history.pendingApprovals, history.messages, log)
        : [];
    // persist the user message
    if (run.userMessage) log.add(run.userMessage);
    else if (run.input !== undefined)
      log.add({ id: inputId!, role: "user", content: run.input, timestamp: Date.now() });
    // Stored before the model is called (a crash keeps it); its fsync may ride on the run's last append, which every path below makes.
    const storedRetry = await persistUserMessage(config, run, history, log, inputId);
    if (storedRetry) return yield* replayTurn(run, storedRetry, startedAt, history.messages);
    if (awaiting.length > 0) log.awaitApproval(awaiting);

    // fit → call → tools, up to maxSteps (none while calls still await approval)
    for (let stepNumber = 1; stepNumber <= config.maxSteps && awaiting.length === 0; stepNumber++) {
      throwIfAborted(run);
      const step = yield* runStep(config, run, {
        stepNumber,
        history,
        context: provided?.context,
        facts,
        recalled,
        log,
        storeTurn: run.history || provided ? undefined : turn,
      });
      history = step.history;
      if (step.factsChanged) facts = await loadFacts(config, run);
      if (step.approvals.length > 0) log.awaitApproval(step.approvals);
      if (step.done) break;
    }
    if (run.output && !log.hasObject) {
      throw new NoObjectGeneratedError({
        reason: "max-steps",
        text: "",
        attempts: 0,
        usage: log.totalUsage,
        sessionId: run.sessionId,
        message: `No object generated: the run reached maxSteps (${config.maxSteps}) while the model was still calling tools.`,
      });
    }

    // persist the rest of the turn; remember
    const write = run.trace?.memoryWrite(log.messages.length);
    await log.persist({ last: true });
    await provided?.persist(config, run, log.messages);
    await rememberTurn(config, run, log.added);
    write?.end();
    // Its payload copies the history: built only when a listener or the stream takes it.
    if (run.notifier.tells("run:end"))
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
