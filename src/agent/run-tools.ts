import type { AgentMessage, ToolCall, ToolMessage } from "../messages/agent-message";
import { executeToolCall } from "../tools/execute-tool-call";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart, ToolResult } from "./agent-result";
import { newId } from "./new-id";
import type { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";

/**
 * Runs a step's tool calls concurrently. Each result is told (`tool:result`) as it arrives; the
 * results, their tool messages and stream parts come back in the order of the calls. A stop
 * (`run.stop`) settles the calls still running at once, without a result: they are left out.
 */
export async function runTools(
  config: AgentConfig,
  run: TurnRun,
  stepNumber: number,
  toolCalls: ToolCall[],
  window: readonly AgentMessage[],
  log: TurnLog,
): Promise<{ results: ToolResult[]; messages: ToolMessage[]; parts: AgentStreamPart[] }> {
  const settled = await Promise.all(
    toolCalls.map(async (toolCall) => {
      // Stopped before the tools started (agent.stop): none starts.
      if (run.stop?.requested) return undefined;
      const startedAt = Date.now();
      const span = run.trace?.tool(toolCall);
      const execute = () =>
        executeToolCall(
          config.tools,
          toolCall,
          {
            sessionId: run.sessionId,
            runId: run.runId,
            ...(run.userId ? { userId: run.userId } : {}),
            ...(run.abortSignal ? { abortSignal: run.abortSignal } : {}),
            messages: window,
            model: config.model,
            context: run.context,
            reportUsage: (usage, model) => log.addToolUsage(usage, model),
          },
          config.messageLimits,
        );
      let outcome: Awaited<ReturnType<typeof execute>>;
      try {
        const running = span ? span.within(execute) : execute();
        // Stopped (agent.stop): the call settles at once without a result, and is dropped.
        outcome = await (run.stop ? run.stop.race(running) : running);
      } catch (error) {
        if (run.stop?.requested) return undefined;
        throw error;
      }
      if (span) run.trace!.endTool(span, outcome);
      const result: ToolResult = {
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        result: outcome.result,
        isError: outcome.isError,
      };
      const part = run.notifier.notify({
        type: "tool:result",
        step: stepNumber,
        ...result,
        durationMs: Date.now() - startedAt,
      });
      return { outcome, result, part };
    }),
  );
  // An abort that arrives while tools run is honoured after the step is recorded whole; a stop
  // drops the calls it cut short (no result: the step keeps only the calls that have one).
  const outcomes = settled.filter((settledCall) => settledCall !== undefined);
  return {
    results: outcomes.map(({ result }) => result),
    parts: outcomes.flatMap(({ part }) => (part ? [part] : [])),
    messages: outcomes.map(({ outcome }) => ({
      id: newId(),
      role: "tool",
      toolCallId: outcome.toolCall.id,
      name: outcome.toolCall.name,
      content: outcome.content,
      timestamp: Date.now(),
    })),
  };
}
