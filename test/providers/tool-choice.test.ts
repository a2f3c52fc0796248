// prepareStep's toolChoice on the wire: Chat Completions' tool_choice (official openai SDK),
// the Messages API's tool_choice (official @anthropic-ai/sdk; structured output's forced tool wins),
// and an AI SDK provider model's toolChoice (@ai-sdk/openai, chat), against the loopback server.
import { createOpenAI as createAISDKOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import type { PrepareStepResult } from "../../src/agent/prepare-step-options";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicMessage, openaiCompletion } from "../servers/wire-formats";
import { weather } from "./helpers";

startFakeLlmServerPerTest();

const choices: Array<[PrepareStepResult["toolChoice"], unknown, unknown]> = [
  ["required", "required", { type: "any" }],
  ["none", "none", { type: "none" }],
  [
    { type: "tool", toolName: "get_weather" },
    { type: "function", function: { name: "get_weather" } },
    { type: "tool", name: "get_weather" },
  ],
];

describe("prepareStep's toolChoice on the wire", () => {
  it.each(choices)("%j: Chat Completions' tool_choice", async (toolChoice, openaiWire) => {
    server.enqueue(openaiCompletion({ text: "ok" }));
    const model = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o-mini");
    await new Agent({ model, tools: { get_weather: weather }, prepareStep: () => ({ toolChoice }) }).run("Hi");
    expect(server.requests[0]!.body.tool_choice).toEqual(openaiWire);
  });

  it.each(choices)("%j: the Messages API's tool_choice", async (toolChoice, _openai, anthropicWire) => {
    server.enqueue(anthropicMessage({ text: "ok" }));
    const model = createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4");
    await new Agent({ model, tools: { get_weather: weather }, prepareStep: () => ({ toolChoice }) }).run("Hi");
    expect(server.requests[0]!.body.tool_choice).toEqual(anthropicWire);
  });

  it("sends no tool_choice without one (the provider's default), and with no tools", async () => {
    server.enqueue(openaiCompletion({ text: "ok" }), openaiCompletion({ text: "ok" }));
    const model = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o-mini");
    await new Agent({ model, tools: { get_weather: weather } }).run("Hi");
    await new Agent({ model, prepareStep: () => ({ toolChoice: "required" }) }).run("Hi");
    expect(server.requests.map((request) => request.body.tool_choice)).toEqual([undefined, undefined]);
  });

  it("reaches an AI SDK provider model as its toolChoice", async () => {
    server.enqueue(openaiCompletion({ text: "ok" }));
    const model = createAISDKOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` }).chat("gpt-4o-mini");
    await new Agent({
      model,
      tools: { get_weather: weather },
      prepareStep: () => ({ toolChoice: { type: "tool", toolName: "get_weather" } }),
    }).run("Hi");
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
  });
});
