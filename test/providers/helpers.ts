import { z } from "zod";
import { tool } from "../../src/tools/tool";
import type { Agent } from "../../src/agent/agent";
import type { AgentMessage } from "../../src/messages/agent-message";
import type { ScriptedAnswer } from "../servers/wire-formats";

/** The tool every provider test uses. */
export const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: city === "Oslo" ? "4°C" : "22°C" }),
});

export const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
};

/** Messages without their ids, timestamps and metadata (which differ run to run). */
export function withoutMeta(messages: readonly AgentMessage[]) {
  return messages.map((message) => {
    const { id: _id, timestamp: _timestamp, ...rest } = message;
    if (!("metadata" in rest)) return rest;
    const { metadata: _metadata, ...withoutMetadata } = rest;
    return withoutMetadata;
  });
}

/**
 * The Chat Completions messages of the weather tool turns, as the model receives them back: a
 * call for Tokyo, its result, then `text` with calls for Oslo and Rome, and their results.
 */
export function chatCompletionsWeatherTurns(text: string) {
  return [
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_a", content: '{"city":"Tokyo","temperature":"22°C"}' },
    {
      role: "assistant",
      content: text,
      tool_calls: [
        { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        { id: "call_c", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_b", content: '{"city":"Oslo","temperature":"4°C"}' },
    { role: "tool", tool_call_id: "call_c", content: '{"city":"Rome","temperature":"22°C"}' },
  ];
}

/**
 * The model's answers of the weather tool turns: a call for Tokyo, then `text` with calls for
 * Oslo and Rome, then the summary. The call ids are `idPrefix` followed by a, b and c.
 */
export function weatherToolAnswers(idPrefix: string, text: string): ScriptedAnswer[] {
  return [
    {
      toolCalls: [{ id: `${idPrefix}a`, name: "get_weather", arguments: { city: "Tokyo" } }],
      usage: { inputTokens: 20, outputTokens: 8 },
    },
    {
      text,
      toolCalls: [
        { id: `${idPrefix}b`, name: "get_weather", arguments: { city: "Oslo" } },
        { id: `${idPrefix}c`, name: "get_weather", arguments: { city: "Rome" } },
      ],
      usage: { inputTokens: 40, outputTokens: 16 },
    },
    { text: "Tokyo 22°C, Oslo 4°C, Rome 22°C.", usage: { inputTokens: 60, outputTokens: 12 } },
  ];
}

/** The agent's answer to `input`, by `run()` or by `stream()` as `mode` says. */
export function runOrStream(agent: Agent, mode: "run" | "stream", input: string) {
  return mode === "run" ? agent.run(input) : agent.stream(input).response;
}
