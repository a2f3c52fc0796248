import type { AssistantMessage } from "../messages/agent-message";
import { emptyUsage } from "../models/language-model";
import type { AgentConfig } from "./agent-config";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { rememberTurn } from "./remember-turn";
import type { TurnState } from "./start-turn";
import type { TurnRun } from "./turn-run";

/**
 * The end of a run stopped by `agent.stop` / `stopRun` (docs/streaming.md, "Stop"): what the turn
 * completed stays as it is (each step whole; a step cut short while its tools ran keeps only the
 * calls that have a result), the text the interrupted model call had streamed becomes the turn's
 * last assistant message, marked `finishReason: "stopped"` (none when nothing was streamed; its
 * incomplete tool calls dropped), and all of it is stored by the turn's last append, which releases
 * the session. `run:end` and the result say "stopped". A run that lost its session lock cannot
 * write: the append's `SessionLockLostError` is thrown.
 */
export async function* stopTurn(
  config: AgentConfig,
  run: TurnRun,
  state: TurnState,
): AsyncGenerator<AgentStreamPart, AgentResult> {
  const { log } = state;
  const text = run.stop?.partialText ?? "";
  if (text !== "") {
    const stopped: AssistantMessage = {
      id: log.assistantMessageId(),
      role: "assistant",
      content: text,
      finishReason: "stopped",
      timestamp: Date.now(),
    };
    const stepNumber = log.steps.length + 1;
    const usage = emptyUsage();
    log.add(stopped);
    log.addStep({ stepNumber, text, toolCalls: [], toolResults: [], finishReason: "other", usage });
    yield* run.notifier.tell({
      type: "step:end",
      step: stepNumber,
      text,
      toolCalls: [],
      finishReason: "other",
      usage,
      messages: [stopped],
    });
  }
  const write = run.trace?.memoryWrite(log.messages.length);
  await log.persist({ last: true });
  await state.provided?.persist(config, run, log.messages);
  await rememberTurn(config, run, log.added);
  write?.end();
  if (run.notifier.tells("run:end"))
    yield* run.notifier.tell({
      type: "run:end",
      ...log.outcome(state.startedAt, state.history.messages),
      finishReason: "stopped",
    });
  return { ...log.result(), finishReason: "stopped" };
}
