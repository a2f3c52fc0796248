// convertToModelMessages on browser payloads: AI SDK v4 messages (with and without parts) and v5
// parts in every state, converted to agent messages exactly.
import { describe, expect, it } from "vitest";
import { convertToModelMessages } from "./convert-to-model-messages";
import { isToolPairingValid } from "../messages/validate-tool-pairing";

describe("convertToModelMessages", () => {
  it("converts the v4 browser payload exactly", () => {
    const input = [
      { id: "msg-1", role: "user", content: "What's the weather in Tokyo?" },
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
    expect(convertToModelMessages(input)).toStrictEqual([
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

  it("takes timestamps from createdAt and drops incomplete v4 calls", () => {
    const output = convertToModelMessages([
      { id: "u", role: "user", content: "hi", createdAt: "2026-01-02T03:04:05.000Z" },
      {
        id: "a",
        role: "assistant",
        content: "Let me check.",
        createdAt: 1700000000000,
        toolInvocations: [
          { toolCallId: "c1", toolName: "search", args: { q: "x" }, state: "call" },
          { toolCallId: "c2", toolName: "search", args: { q: "y" }, state: "partial-call" },
        ],
      },
    ]);
    expect(output).toStrictEqual([
      { id: "u", role: "user", content: "hi", timestamp: Date.parse("2026-01-02T03:04:05.000Z") },
      { id: "a", role: "assistant", content: "Let me check.", timestamp: 1700000000000 },
    ]);
  });

  it("converts v5 parts: steps, static and dynamic tools in every state, reasoning, files, sources", () => {
    const output = convertToModelMessages([
      {
        id: "u1",
        role: "user",
        parts: [
          { type: "text", text: "Compare Oslo and Rome" },
          { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "map.png" },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "reasoning", text: "I should call the tool twice." },
          { type: "text", text: "Checking both." },
          {
            type: "tool-get_weather",
            toolCallId: "w1",
            state: "output-available",
            input: { city: "Oslo" },
            output: { t: 3 },
          },
          {
            type: "dynamic-tool",
            toolName: "lookup",
            toolCallId: "w2",
            state: "output-error",
            input: { city: "Rome" },
            errorText: "timeout",
          },
          { type: "tool-get_weather", toolCallId: "w3", state: "input-available", input: { city: "Paris" } },
          { type: "tool-get_weather", toolCallId: "w4", state: "input-streaming" },
          { type: "tool-delete_all", toolCallId: "w5", state: "output-denied", input: {} },
          { type: "step-start" },
          { type: "source-url", sourceId: "s", url: "https://example.com" },
          { type: "data-weather", data: { any: 1 } },
          { type: "text", text: "Oslo is colder." },
        ],
      },
    ]);
    expect(output).toStrictEqual([
      {
        id: "u1",
        role: "user",
        content: [
          { type: "text", text: "Compare Oslo and Rome" },
          { type: "image", image: "data:image/png;base64,AAAA", mediaType: "image/png", filename: "map.png" },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        content: [
          { type: "reasoning", text: "I should call the tool twice." },
          { type: "text", text: "Checking both." },
        ],
        toolCalls: [
          { id: "w1", name: "get_weather", arguments: { city: "Oslo" } },
          { id: "w2", name: "lookup", arguments: { city: "Rome" } },
          { id: "w5", name: "delete_all", arguments: {} },
        ],
      },
      { role: "tool", toolCallId: "w1", name: "get_weather", content: '{"t":3}' },
      { role: "tool", toolCallId: "w2", name: "lookup", content: "Error: timeout" },
      { role: "tool", toolCallId: "w5", name: "delete_all", content: "Error: Tool call execution denied." },
      { role: "assistant", content: "Oslo is colder." },
    ]);
    expect(isToolPairingValid(output)).toBe(true);
  });

  it("reads v4 messages that carry parts (tool-invocation parts)", () => {
    const output = convertToModelMessages([
      {
        id: "a",
        role: "assistant",
        content: "ignored when parts exist",
        parts: [
          { type: "step-start" },
          {
            type: "tool-invocation",
            toolInvocation: { toolCallId: "t", toolName: "calc", args: { x: 1 }, state: "result", result: 2 },
          },
          { type: "step-start" },
          { type: "text", text: "It is 2." },
        ],
      },
    ]);
    expect(output.map((message) => [message.role, message.content])).toEqual([
      ["assistant", ""],
      ["tool", "2"],
      ["assistant", "It is 2."],
    ]);
  });
});
