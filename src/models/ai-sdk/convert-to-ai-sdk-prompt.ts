import type { AgentMessage } from "../../messages/agent-message";
import type { ToolDefinition } from "../language-model";
import { requireTextContent } from "../require-text-content";
import type { AISDKCallOptions, AISDKPromptMessage } from "./ai-sdk-types";

type ToolResultPart = Extract<AISDKPromptMessage, { role: "tool" }>["content"][number];
type AssistantPart = Extract<AISDKPromptMessage, { role: "assistant" }>["content"][number];

/**
 * Maps the system prompt and the conversation to an AI SDK prompt (the `LanguageModelV2/V3`
 * prompt): the system prompt first as a `system` message, user text as a text part, assistant
 * text and `toolCalls` as text and `tool-call` parts (input as the parsed object), and the tool
 * messages that follow one another as one `tool` message of `tool-result` parts (output as
 * text: agentcore keeps tool results as text), so each call's result comes right after it.
 */
export function convertToAISDKPrompt(
  system: string | undefined,
  messages: readonly AgentMessage[],
): AISDKPromptMessage[] {
  const prompt: AISDKPromptMessage[] = [];
  if (system !== undefined && system !== "") prompt.push({ role: "system", content: system });
  let toolResults: ToolResultPart[] | undefined;
  messages.forEach((message, index) => {
    if (message.role !== "tool") toolResults = undefined;
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({
          role: "user",
          content: [{ type: "text", text: requireTextContent(message.content, "ai-sdk", index) }],
        });
        break;
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        const content: AssistantPart[] = [];
        const text = requireTextContent(message.content, "ai-sdk", index);
        if (text !== "" || toolCalls.length === 0) content.push({ type: "text", text });
        for (const toolCall of toolCalls) {
          content.push({
            type: "tool-call",
            toolCallId: toolCall.id,
            toolName: toolCall.name,
            input: toolCall.arguments,
          });
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part: ToolResultPart = {
          type: "tool-result",
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: { type: "text", value: requireTextContent(message.content, "ai-sdk", index) },
        };
        if (toolResults) {
          toolResults.push(part);
        } else {
          toolResults = [part];
          prompt.push({ role: "tool", content: toolResults });
        }
        break;
      }
    }
  });
  return prompt;
}

/** Tools as AI SDK function tools with their JSON Schema; `undefined` when there are none. */
export function convertToAISDKTools(tools: readonly ToolDefinition[]): AISDKCallOptions["tools"] {
  if (tools.length === 0) return undefined;
  return tools.map((definition) => ({
    type: "function" as const,
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    inputSchema: definition.parameters,
  }));
}
