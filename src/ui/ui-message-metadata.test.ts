// How a UI message's metadata folds the metadata of the stored messages it is made of
// (docs/messages.md, "Message metadata").
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage } from "../messages/agent-message";
import type { StepMetadata } from "../messages/message-metadata";
import { convertToModelMessages } from "./convert-to-model-messages";
import { convertToUIMessages } from "./convert-to-ui-messages";

const step = (modelId: string, inputTokens: number, finishReason: string, durationMs: number): StepMetadata => ({
  provider: "openai",
  modelId,
  usage: { inputTokens, outputTokens: 1, totalTokens: inputTokens + 1 },
  finishReason,
  durationMs,
});

/** A turn of two steps (a call, its result, the answer) stored by two runs with different app fields. */
function history(): AgentMessage[] {
  const call: AssistantMessage = {
    id: "a1",
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "lookup", arguments: {} }],
    metadata: {
      agentcore: step("gpt-4o-mini", 10, "tool-calls", 100),
      plan: "free",
      trace: { run: "r1", first: true },
    },
    timestamp: 2,
  };
  return [
    { id: "u1", role: "user", content: "Hi", timestamp: 1 },
    call,
    { id: "t1", role: "tool", toolCallId: "c1", name: "lookup", content: "found", timestamp: 3 },
    {
      id: "a2",
      role: "assistant",
      content: "Found it.",
      metadata: {
        agentcore: { ...step("gpt-4o", 20, "stop", 50), usage: { ...step("", 20, "", 0).usage, reasoningTokens: 4 } },
        plan: "pro",
        trace: { run: "r2" },
      },
      timestamp: 4,
    },
  ];
}

describe("UI message metadata", () => {
  it("folds a message's steps: the last step's model and finish reason, usage and duration summed, each step listed, app fields merged in order", () => {
    const [, answer] = convertToUIMessages(history());
    expect(answer!.metadata).toEqual({
      plan: "pro",
      trace: { run: "r2", first: true },
      agentcore: {
        ids: ["a1", "t1", "a2"],
        timestamps: [2, 3, 4],
        provider: "openai",
        modelId: "gpt-4o",
        finishReason: "stop",
        usage: { inputTokens: 30, outputTokens: 2, totalTokens: 32, reasoningTokens: 4 },
        durationMs: 150,
        steps: [
          step("gpt-4o-mini", 10, "tool-calls", 100),
          {
            ...step("gpt-4o", 20, "stop", 50),
            usage: { inputTokens: 20, outputTokens: 1, totalTokens: 21, reasoningTokens: 4 },
          },
        ],
      },
    });
  });

  it("lists no steps for a message of one step, and says nothing of models for messages stored without metadata", () => {
    const [, single] = convertToUIMessages([history()[0]!, history()[3]!]);
    expect(single!.metadata).toEqual({
      plan: "pro",
      trace: { run: "r2" },
      agentcore: {
        ids: ["a2"],
        timestamps: [4],
        provider: "openai",
        modelId: "gpt-4o",
        finishReason: "stop",
        usage: { inputTokens: 20, outputTokens: 1, totalTokens: 21, reasoningTokens: 4 },
        durationMs: 50,
      },
    });
    const [, old] = convertToUIMessages([
      { id: "u1", role: "user", content: "Hi", timestamp: 1 },
      { id: "a1", role: "assistant", content: "Hello", timestamp: 2 },
    ]);
    expect(old!.metadata).toEqual({ agentcore: { ids: ["a1"], timestamps: [2] } });
  });

  it("is not read back by convertToModelMessages: what a client sends there is not trusted", () => {
    const ui = convertToUIMessages(history());
    const back = convertToModelMessages(ui);
    expect(back.map((message) => message.id)).toEqual(["u1", "a1", "t1", "a2"]);
    for (const message of back) expect(message).not.toHaveProperty("metadata");
  });

  it("refuses a stored message whose metadata is not JSON, naming it", () => {
    expect(() =>
      convertToUIMessages([
        { role: "assistant", content: "x", metadata: { at: new Date(0) } } as unknown as AgentMessage,
      ]),
    ).toThrow(/metadata\.at is an instance of Date, not a plain object/);
  });
});
