// "A full agent run with tools gives the same res.messages whichever provider answered the same
// script": OpenAI and Anthropic (official SDKs against the loopback server) and MockLanguageModel.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import type { AgentResult } from "../../src/agent/agent-result";
import type { LanguageModel } from "../../src/models/language-model";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import { FakeLlmServer } from "../servers/fake-llm-server";
import {
  anthropicMessage,
  anthropicStream,
  openaiCompletion,
  openaiStream,
  type ScriptedAnswer,
} from "../servers/wire-formats";
import { weather, withoutMeta } from "./helpers";

const script: ScriptedAnswer[] = [
  {
    text: "Let me check.",
    toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } }],
    usage: { inputTokens: 10, outputTokens: 5 },
  },
  {
    toolCalls: [
      { id: "call_2", name: "get_weather", arguments: { city: "Oslo" } },
      { id: "call_3", name: "get_weather", arguments: { city: "Rome" } },
    ],
    usage: { inputTokens: 20, outputTokens: 6 },
  },
  { text: "Tokyo 22°C, Oslo 4°C, Rome 22°C.", usage: { inputTokens: 30, outputTokens: 7 } },
];

let server: FakeLlmServer;
beforeAll(async () => {
  server = await FakeLlmServer.start();
});
afterAll(async () => {
  await server.close();
});

type Mode = "run" | "stream";
const models: Record<string, (mode: Mode) => LanguageModel> = {
  mock: () => new MockLanguageModel({ responses: script }),
  openai: (mode) => {
    server.enqueue(...script.map((answer) => (mode === "run" ? openaiCompletion(answer) : openaiStream(answer))));
    return createOpenAI({ apiKey: "k", baseURL: `${server.url}/v1` })("gpt-4o-mini");
  },
  anthropic: (mode) => {
    server.enqueue(...script.map((answer) => (mode === "run" ? anthropicMessage(answer) : anthropicStream(answer))));
    return createAnthropic({ apiKey: "k", baseURL: server.url })("claude-sonnet-5-5");
  },
};

async function runScript(name: string, mode: Mode): Promise<{ result: AgentResult; stored: unknown[] }> {
  const store = new InMemoryStore();
  const agent = new Agent({
    model: models[name]!(mode),
    systemPrompt: "Use tools.",
    tools: { get_weather: weather },
    memoryStore: store,
    sessionId: "same",
  });
  const result =
    mode === "run"
      ? await agent.run("Weather in Tokyo, Oslo and Rome?")
      : await agent.stream("Weather in Tokyo, Oslo and Rome?").response;
  expect(server.pending).toBe(0);
  return { result, stored: withoutMeta(await store.getMessages("same")) };
}

describe("the same script through every provider", () => {
  it.each(["run", "stream"] as const)("gives the same messages, tool results and usage (%s)", async (mode) => {
    const outcomes = [];
    for (const name of Object.keys(models)) outcomes.push({ name, ...(await runScript(name, mode)) });
    const [reference, ...others] = outcomes;
    expect(withoutMeta(reference!.result.messages)).toEqual([
      { role: "user", content: "Weather in Tokyo, Oslo and Rome?" },
      {
        role: "assistant",
        content: "Let me check.",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } }],
      },
      { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"city":"Tokyo","temperature":"22°C"}' },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "call_2", name: "get_weather", arguments: { city: "Oslo" } },
          { id: "call_3", name: "get_weather", arguments: { city: "Rome" } },
        ],
      },
      { role: "tool", toolCallId: "call_2", name: "get_weather", content: '{"city":"Oslo","temperature":"4°C"}' },
      { role: "tool", toolCallId: "call_3", name: "get_weather", content: '{"city":"Rome","temperature":"22°C"}' },
      { role: "assistant", content: "Tokyo 22°C, Oslo 4°C, Rome 22°C." },
    ]);
    for (const other of others) {
      expect({ name: other.name, messages: withoutMeta(other.result.messages) }).toEqual({
        name: other.name,
        messages: withoutMeta(reference!.result.messages),
      });
      expect({ name: other.name, stored: other.stored }).toEqual({ name: other.name, stored: reference!.stored });
      expect(other.result.toolResults).toEqual(reference!.result.toolResults);
      expect(other.result.usage).toEqual(reference!.result.usage);
      expect(other.result.steps.map((step) => step.finishReason)).toEqual(
        reference!.result.steps.map((step) => step.finishReason),
      );
    }
  });
});
