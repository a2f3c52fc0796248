import { errorText, errorType } from "../errors/error-text";
import { SessionLockLostError } from "../errors/session-lock-lost-error";
import type { ToolCall } from "../messages/agent-message";
import type { ToolContentPart } from "../messages/content-parts";
import type { ResolvedMessageLimits } from "../messages/message-limits";
import { toolResultContent } from "../messages/tool-result-content";
import { ARGUMENTS_TOO_DEEP, exceedsDepth } from "../messages/tool-arguments-depth";
import { isJsonSchema, TOO_DEEP_ISSUE, type ToolInputValidation } from "./json-schema";
import type { Tool, ToolCallContext, ToolSet } from "./tool";

export interface ToolCallOutcome {
  toolCall: ToolCall;
  /** The value `execute` returned, or the error text when it failed. */
  result: unknown;
  /**
   * The tool message content sent back to the model: the result's text, or its parts when the
   * tool returned parts (an image, an array of text and image parts, the AI SDK's content output).
   */
  content: string | ToolContentPart[];
  isError: boolean;
  /**
   * What failed, when `isError`: the class of the error `execute` threw (its `name`),
   * `UnknownToolError` or `InvalidToolInputError`. Traces record it as `error.type`.
   */
  errorType?: string;
}

/**
 * Runs one tool call. Failures the model can fix (unknown tool, invalid arguments, arguments
 * nested deeper than `MAX_TOOL_ARGUMENTS_DEPTH`, a throwing `execute`) come back as an error
 * result for the model, never as a thrown error. Only an abort of the run and a
 * `SessionLockLostError` (the run lost its session's lock: a memory tool's write was refused) are
 * rethrown.
 */
export async function executeToolCall(
  tools: ToolSet,
  toolCall: ToolCall,
  context: Omit<ToolCallContext, "toolCallId">,
  /** Bounds of a result given as parts (the agent's `messageLimits`). @default MessageLimits' defaults */
  limits?: ResolvedMessageLimits,
): Promise<ToolCallOutcome> {
  const toolValue = Object.hasOwn(tools, toolCall.name) ? tools[toolCall.name] : undefined;
  if (!toolValue) {
    const available = Object.keys(tools);
    return errorOutcome(
      toolCall,
      "UnknownToolError",
      `Unknown tool "${toolCall.name}". Available tools: ${available.length ? available.join(", ") : "none"}.`,
    );
  }
  if (toolCall.arguments === ARGUMENTS_TOO_DEEP || exceedsDepth(toolCall.arguments)) {
    return errorOutcome(
      toolCall,
      "InvalidToolInputError",
      `Invalid arguments for tool "${toolCall.name}": ${TOO_DEEP_ISSUE}.`,
    );
  }
  const parsed = validateToolInput(toolValue, toolCall.arguments);
  if (!parsed.success) {
    return errorOutcome(
      toolCall,
      "InvalidToolInputError",
      `Invalid arguments for tool "${toolCall.name}": ${parsed.issues.join("; ")}. Fix the arguments and call it again.`,
    );
  }
  let result: unknown;
  try {
    result = await toolValue.execute(parsed.value, { ...context, toolCallId: toolCall.id });
  } catch (error) {
    // A run that lost its session's lock (a fenced fact write refused) fails, as a refused append does: no model can fix it.
    if (context.abortSignal?.aborted || SessionLockLostError.isInstance(error)) throw error;
    const reason = errorText(error);
    return errorOutcome(toolCall, errorType(error), `Tool "${toolCall.name}" failed: ${reason}`);
  }
  const content = toolResultContent(result, limits);
  if ("problem" in content) {
    return errorOutcome(
      toolCall,
      "InvalidToolResultError",
      `Tool "${toolCall.name}" returned content that cannot be sent: ${content.problem}.`,
    );
  }
  return { toolCall, result, content: content.content, isError: false };
}

/** The tool's input schema applied to the model's arguments: zod's output, or the arguments a JSON Schema accepted. */
export function validateToolInput(toolValue: Tool, input: unknown): ToolInputValidation<unknown> {
  if (isJsonSchema(toolValue.parameters)) return toolValue.parameters.validate(input);
  const parsed = toolValue.parameters.safeParse(input);
  if (parsed.success) return { success: true, value: parsed.data };
  return {
    success: false,
    issues: parsed.error.issues.map(
      (issue) => `${issue.path.length ? issue.path.join(".") : "(input)"}: ${issue.message}`,
    ),
  };
}

function errorOutcome(toolCall: ToolCall, type: string, message: string): ToolCallOutcome {
  return { toolCall, result: message, content: `Error: ${message}`, isError: true, errorType: type };
}
