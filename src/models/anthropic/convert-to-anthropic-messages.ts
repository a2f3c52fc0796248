import type Anthropic from "@anthropic-ai/sdk";
import type { AgentMessage } from "../../messages/agent-message";
import type { ToolChoice, ToolDefinition } from "../language-model";
import { assistantBlocks, toolResultContent, userBlocks } from "./anthropic-content-blocks";

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlock = Anthropic.Messages.ContentBlockParam;

/**
 * Maps the system prompt and the conversation to the Messages API: the system prompt (and any
 * system message) as the top-level `system`; assistant `toolCalls` as `tool_use` blocks; `tool`
 * messages as `tool_result` blocks in the user message that follows, all results of one step
 * together; consecutive messages of the same role merged into one (the API requires
 * alternation, e.g. two user messages in a row after an aborted turn). Empty text is left out
 * (the API rejects empty text blocks). Parts are mapped by `anthropic-content-blocks.ts`.
 * `lastBlocks[i]` is the last block made from `messages[i]` that may carry a `cache_control`
 * (not a thinking block), where prompt caching puts its breakpoints.
 */
export function convertToAnthropicMessages(
  system: string | undefined,
  messages: readonly AgentMessage[],
): { system: string | undefined; messages: MessageParam[]; lastBlocks: (ContentBlock | undefined)[] } {
  const systemParts = system ? [system] : [];
  const result: { role: "user" | "assistant"; content: ContentBlock[] }[] = [];
  const lastBlocks: (ContentBlock | undefined)[] = [];
  let current = 0;
  const push = (role: "user" | "assistant", blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    lastBlocks[current] = blocks.findLast((block) => !isThinking(block));
    const last = result.at(-1);
    if (last && last.role === role) {
      // tool_result blocks must open a user message: keep them ahead of text merged into it.
      if (role === "user" && blocks.some((block) => block.type === "tool_result")) {
        const results = [...last.content, ...blocks].filter((block) => block.type === "tool_result");
        const others = [...last.content, ...blocks].filter((block) => block.type !== "tool_result");
        last.content = [...results, ...others];
      } else if (role === "assistant" && blocks.some(isThinking)) {
        // Thinking blocks must open an assistant message: keep them ahead of what is merged into it.
        const merged = [...last.content, ...blocks];
        last.content = [...merged.filter(isThinking), ...merged.filter((block) => !isThinking(block))];
      } else {
        last.content.push(...blocks);
      }
    } else {
      result.push({ role, content: [...blocks] });
    }
  };
  messages.forEach((message, index) => {
    current = index;
    switch (message.role) {
      case "system":
        if (message.content) systemParts.push(message.content);
        break;
      case "user":
        push("user", userBlocks(message.content, index));
        break;
      case "assistant":
        push("assistant", [
          ...assistantBlocks(message.content),
          ...(message.toolCalls ?? []).map(
            (toolCall): ContentBlock => ({
              type: "tool_use",
              id: toolCall.id,
              name: toolCall.name,
              input: toolCall.arguments,
            }),
          ),
        ]);
        break;
      case "tool":
        push("user", [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId,
            content: toolResultContent(message.content),
          },
        ]);
        break;
    }
  });
  return { system: systemParts.length ? systemParts.join("\n\n") : undefined, messages: result, lastBlocks };
}

function isThinking(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}

/** A call's tool choice as the Messages API's `tool_choice` (`required` is its `any`). */
export function convertToAnthropicToolChoice(choice: ToolChoice): Anthropic.Messages.ToolChoice {
  if (typeof choice === "object") return { type: "tool", name: choice.toolName };
  return { type: choice === "required" ? "any" : choice };
}

/** Tools as Messages API tools; `undefined` when there are none. */
export function convertToAnthropicTools(tools: readonly ToolDefinition[]): Anthropic.Messages.Tool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((definition) => ({
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    input_schema: { type: "object" as const, ...definition.parameters },
  }));
}
