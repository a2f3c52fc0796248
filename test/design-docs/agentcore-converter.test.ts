// The AgentCore document's converter example (seeds/001, converter-usage.ts), as written: `tsc` checks it
// (the v4 `content` + `toolInvocations` shape is a UIMessage) and the test checks the documented output.
import { describe, expect, it } from "vitest";
import { convertToModelMessages, type UIMessage, type AgentMessage } from "agentcore";

describe("AgentCore document: convertToModelMessages", () => {
  it("runs the converter example and gives the documented messages", () => {
    // 1. Raw UI messages received from client request
    const uiMessages: UIMessage[] = [
      {
        id: "msg-1",
        role: "user",
        content: "What's the weather in Tokyo?",
        createdAt: new Date(),
      },
      {
        id: "msg-2",
        role: "assistant",
        content: "",
        toolInvocations: [
          {
            toolCallId: "call_abc123",
            toolName: "get_weather",
            args: { city: "Tokyo" },
            state: "result",
            result: { temperature: "22°C", condition: "Sunny" },
          },
        ],
      },
    ];

    // 2. Convert UI state to Model-ready AgentMessage array
    const modelMessages: AgentMessage[] = convertToModelMessages(uiMessages);

    expect(modelMessages).toMatchObject([
      { id: "msg-1", role: "user", content: "What's the weather in Tokyo?" },
      {
        id: "msg-2",
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_abc123", name: "get_weather", arguments: { city: "Tokyo" } }],
      },
      {
        role: "tool",
        toolCallId: "call_abc123",
        name: "get_weather",
        content: '{"temperature":"22°C","condition":"Sunny"}',
      },
    ]);
  });
});
