// A call of a tool that the server runs only as a task (`execution.taskSupport: "required"`):
// the SDK's task API creates the task, polls it, and fetches its result (answering the server's
// questions in between, when the task needs input).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { NO_SDK_TIMEOUT } from "./mcp-deadline";

/** The task's result; a task that failed throws `TaskFailed` with the server's last status message. */
export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<CallToolResult> {
  let taskId: string | undefined;
  let status: { status: string; statusMessage?: string } | undefined;
  let done = false;
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
      signal: options.signal,
      timeout: NO_SDK_TIMEOUT,
      task: {},
    });
    for await (const message of stream) {
      if (message.type === "taskCreated") taskId = message.task.taskId;
      else if (message.type === "taskStatus") status = message.task;
      else if (message.type === "result") {
        done = true;
        return message.result as CallToolResult;
      } else if (message.type === "error") {
        if (status?.status === "failed" || status?.status === "cancelled")
          throw new TaskFailed(taskId!, status.status, status.statusMessage);
        throw message.error;
      }
    }
    throw new Error(`The task of tool "${name}" ended without a result.`);
  } finally {
    // Aborted, timed out or the connection failed: the task would go on running on the server.
    const ended = done || (status !== undefined && ["completed", "failed", "cancelled"].includes(status.status));
    if (taskId !== undefined && !ended)
      void client.experimental.tasks.cancelTask(taskId, { timeout: options.timeoutMs }).catch(() => undefined);
  }
}

/** The server's task ended `failed` or `cancelled`. */
export class TaskFailed extends Error {
  constructor(
    readonly taskId: string,
    readonly status: string,
    readonly statusMessage: string | undefined,
  ) {
    super(`The task ${taskId} ${status}${statusMessage ? `: ${statusMessage}` : ""}.`);
  }
}
