import type { ToolCall } from "../messages/agent-message";
import { contentText } from "../messages/content-text";
import {
  emptyUsage,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
} from "../models/language-model";

/**
 * The offline model of `agentcore chat --model mock`: remembers on "remember that my X is Y",
 * answers "what is my X?" from its facts, echoes the rest. Streams its answer as one delta.
 */
export function scriptedModel(): LanguageModel {
  let toolCallCount = 0;
  const answer = (call: LanguageModelCall): LanguageModelResult => {
    const reply = (text: string, toolCalls: ToolCall[] = []): LanguageModelResult => ({
      text,
      toolCalls,
      finishReason: toolCalls.length ? "tool-calls" : "stop",
      usage: emptyUsage(),
      response: { modelId: "scripted" },
    });
    const last = call.messages.at(-1);
    if (last?.role === "tool")
      return reply(last.name === "remember_fact" ? "Noted." : `Done: ${contentText(last.content)}`);
    const input = last === undefined ? "" : contentText(last.content);
    const remember = /remember that my (.+?) is (.+?)[.!]?$/i.exec(input);
    if (remember && call.tools.some((tool) => tool.name === "remember_fact")) {
      return reply("", [
        {
          id: `call_scripted_${++toolCallCount}`,
          name: "remember_fact",
          arguments: { key: remember[1]!, value: remember[2]! },
        },
      ]);
    }
    const question = /what is my (.+?)\??$/i.exec(input);
    if (question) {
      const key = question[1]!.trim().toLowerCase().replace(/\s+/g, "_");
      const fact = new RegExp(`"${key}": "([^"]*)"`).exec(call.system ?? "");
      if (fact) return reply(`Your ${question[1]} is ${fact[1]}.`);
    }
    return reply(`You said: ${input}`);
  };
  return {
    provider: "mock",
    modelId: "scripted",
    doGenerate: async (call) => answer(call),
    async *doStream(call): AsyncIterable<LanguageModelStreamPart> {
      const result = answer(call);
      if (result.text) yield { type: "text-delta", delta: result.text };
      for (const toolCall of result.toolCalls) yield { type: "tool-call", toolCall };
      yield { type: "finish", finishReason: result.finishReason, usage: result.usage, response: result.response };
    },
  };
}
