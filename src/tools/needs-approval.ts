import type { ToolCall } from "../messages/agent-message";
import { ARGUMENTS_TOO_DEEP, exceedsDepth } from "../messages/tool-arguments-depth";
import { validateToolInput } from "./execute-tool-call";
import type { ToolCallContext, ToolSet } from "./tool";

/**
 * Whether a call must wait for the user's approval: its tool's `needsApproval` is `true`, or a
 * function that says so for the call's validated input. A call of an unknown tool or with invalid
 * arguments never runs (the model gets the error), so it is never asked about. A function that
 * throws fails the run: asking nobody would run a call the user may have had to approve.
 */
export async function needsApproval(
  tools: ToolSet,
  toolCall: ToolCall,
  context: Omit<ToolCallContext, "toolCallId">,
): Promise<boolean> {
  const toolValue = Object.hasOwn(tools, toolCall.name) ? tools[toolCall.name] : undefined;
  const rule = toolValue?.needsApproval;
  if (!toolValue || rule === undefined || rule === false) return false;
  if (toolCall.arguments === ARGUMENTS_TOO_DEEP || exceedsDepth(toolCall.arguments)) return false;
  const parsed = validateToolInput(toolValue, toolCall.arguments);
  if (!parsed.success) return false;
  if (rule === true) return true;
  return (await rule(parsed.value as never, { ...context, toolCallId: toolCall.id })) === true;
}
