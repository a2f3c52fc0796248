import type { AgentMessage, ToolCall, ToolMessage } from "../messages/agent-message";
import { executeToolCall } from "../tools/execute-tool-call";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart, ToolResult } from "./agent-result";
import { newId } from "./new-id";
import type { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";

/**
 * Runs a step's tool calls concurrently. Each result is told (`tool:result`) as it arrives; the
 * results, their tool messages and stream parts come back in the order of the calls.
 */
export async function runTools(
  config: AgentConfig,
  run: TurnRun,
  stepNumber: number,
  toolCalls: ToolCall[],
  window: readonly AgentMessage[],
  log: TurnLog,
): Promise<{ results: ToolResult[]; messages: ToolMessage[]; parts: AgentStreamPart[] }> {
  const outcomes = await Promise.all(
    toolCalls.map(async (toolCall) => {
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
            reportUsage: (usage) => log.addToolUsage(usage),
          },
          config.messageLimits,
        );
      const outcome = await (span ? span.within(execute) : execute());
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
  // An abort that arrives while tools run is honoured after the step is recorded whole.
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
