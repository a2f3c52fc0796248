// agentcore's messages in the format of the OpenTelemetry GenAI semantic conventions
// (gen_ai.input.messages / gen_ai.output.messages / gen_ai.system_instructions): role and parts.
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../messages/agent-message";
import { genAIInputMessages, genAIOutputMessages, genAISystemInstructions, toGenAIParts } from "./gen-ai-messages";

describe("the GenAI conventions' messages", () => {
  it("give every role its parts: text, tool calls, tool call responses", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
      },
      { role: "tool", toolCallId: "call_1", name: "get_weather", content: "rainy, 57°F" },
      { role: "assistant", content: "Rainy." },
    ];
    expect(JSON.parse(genAIInputMessages(messages))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] },
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "rainy, 57°F" }] },
      { role: "assistant", parts: [{ type: "text", content: "Rainy." }] },
    ]);
  });

  it("put the finish reason, spelled as the conventions do, on the output message", () => {
    const toolCall = { id: "call_2", name: "lookup", arguments: {} };
    expect(JSON.parse(genAIOutputMessages({ content: "Let me look.", toolCalls: [toolCall] }, "tool-calls"))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "text", content: "Let me look." },
          { type: "tool_call", id: "call_2", name: "lookup", arguments: {} },
        ],
        finish_reason: "tool_call",
      },
    ]);
    const reasons = ["stop", "length", "content-filter", "error", "other"] as const;
    expect(reasons.map((reason) => JSON.parse(genAIOutputMessages({ content: "" }, reason))[0].finish_reason)).toEqual([
      "stop",
      "length",
      "content_filter",
      "error",
      "other",
    ]);
  });

  it("give the system prompt as text parts", () => {
    expect(JSON.parse(genAISystemInstructions("You are terse."))).toEqual([
      { type: "text", content: "You are terse." },
    ]);
  });

  it("map content given as parts: text, reasoning, images and files as blobs or URIs", () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(
      toGenAIParts([
        { type: "reasoning", text: "The user wants a picture described." },
        { type: "text", text: "What is in it?" },
        { type: "image", image: bytes, mediaType: "image/png" },
        { type: "image", image: new URL("https://example.com/cat.jpg") },
        { type: "image", image: "data:image/jpeg;base64,/9j/4AAQ" },
        { type: "image", image: "iVBORw0KGgo=" },
        { type: "file", data: "JVBERi0x", mediaType: "application/pdf", filename: "a.pdf" },
        { type: "file", data: "https://example.com/talk.mp3", mediaType: "audio/mpeg" },
        { type: "file", data: "data:text/plain,hello%20there", mediaType: "text/plain" },
        { type: "source", url: "https://example.com" },
      ]),
    ).toEqual([
      { type: "reasoning", content: "The user wants a picture described." },
      { type: "text", content: "What is in it?" },
      { type: "blob", modality: "image", mime_type: "image/png", content: "iVBORw==" },
      { type: "uri", modality: "image", uri: "https://example.com/cat.jpg" },
      { type: "blob", modality: "image", mime_type: "image/jpeg", content: "/9j/4AAQ" },
      { type: "blob", modality: "image", content: "iVBORw0KGgo=" },
      { type: "blob", modality: "document", mime_type: "application/pdf", content: "JVBERi0x" },
      { type: "uri", modality: "audio", mime_type: "audio/mpeg", uri: "https://example.com/talk.mp3" },
      { type: "blob", modality: "document", mime_type: "text/plain", content: btoa("hello there") },
      { type: "source" },
    ]);
    // A tool result given as parts is the response's parts.
    const tool = { role: "tool", toolCallId: "c", name: "shot", content: [{ type: "text", text: "done" }] };
    expect(JSON.parse(genAIInputMessages([tool as unknown as AgentMessage]))).toEqual([
      { role: "tool", parts: [{ type: "tool_call_response", id: "c", response: [{ type: "text", content: "done" }] }] },
    ]);
  });
});
