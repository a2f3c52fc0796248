import type OpenAI from "openai";
import type { AgentMessage } from "../../messages/agent-message";
import type { ToolDefinition } from "../language-model";
import { requireTextContent } from "../require-text-content";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;

/**
 * Maps the system prompt and the conversation to Chat Completions messages: the system prompt
 * first as a `system` message, assistant `toolCalls` as `tool_calls` (arguments as JSON text),
 * `tool` messages with their `tool_call_id`.
 */
export function convertToOpenAIMessages(system: string | undefined, messages: readonly AgentMessage[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  if (system !== undefined && system !== "") result.push({ role: "system", content: system });
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
        result.push({ role: "system", content: message.content });
        break;
      case "user":
        result.push({ role: "user", content: requireTextContent(message.content, "openai", index) });
        break;
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        const content = requireTextContent(message.content, "openai", index);
        if (toolCalls.length === 0) {
          result.push({ role: "assistant", content });
        } else {
          result.push({
            role: "assistant",
            content: content === "" ? null : content,
            tool_calls: toolCalls.map((toolCall) => ({
              id: toolCall.id,
              type: "function" as const,
              function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments) },
            })),
          });
        }
        break;
      }
      case "tool":
        result.push({
          role: "tool",
          tool_call_id: message.toolCallId,
          content: requireTextContent(message.content, "openai", index),
        });
        break;
    }
  });
  return result;
}

/** Tools as Chat Completions functions; `undefined` when there are none (an empty list is an API error). */
export function convertToOpenAITools(tools: readonly ToolDefinition[]): ChatTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((definition) => ({
    type: "function" as const,
    function: {
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      parameters: definition.parameters,
    },
  }));
}
