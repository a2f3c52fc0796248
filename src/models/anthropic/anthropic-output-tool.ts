import type Anthropic from "@anthropic-ai/sdk";
import type { LanguageModelCall } from "../language-model";

/** The tool a call with `responseFormat` gets on Anthropic: its input is the object. */
export interface AnthropicOutputTool {
  name: string;
  tool: Anthropic.Messages.Tool;
  toolChoice: Anthropic.Messages.ToolChoice;
}

/**
 * Structured output on the Messages API: an output tool whose input schema is the object's, and
 * a `tool_choice` that makes the model call a tool. Alone, the output tool is forced (`{ type:
 * "tool", name }`); beside the call's own tools the model must call one of them (`any`), one per
 * answer (`disable_parallel_tool_use`), so it either runs tools (the loop goes on) or gives the
 * object (the loop ends). The adapter gives the output tool's input back as the answer's text,
 * never as a tool call, so nothing stores a call without its result. The name is the format's,
 * suffixed when a tool of the call has it.
 */
export function anthropicOutputTool(call: LanguageModelCall): AnthropicOutputTool | undefined {
  const format = call.responseFormat;
  if (!format) return undefined;
  const taken = new Set(call.tools.map((tool) => tool.name));
  let name = format.name ?? "response";
  while (taken.has(name)) name = `${name.slice(0, 57)}_output`;
  return {
    name,
    tool: {
      name,
      description:
        format.description ??
        "Give your final answer as this tool's input: the object asked for. Call it when no other tool is needed.",
      input_schema: { type: "object" as const, ...format.schema },
    },
    toolChoice: call.tools.length
      ? { type: "any", disable_parallel_tool_use: true }
      : { type: "tool", name, disable_parallel_tool_use: true },
  };
}
