// The corpus of `useChat` payloads (AI SDK UI messages) that convert-side-by-side.test.ts converts
// with ours and the ai package's convertToModelMessages: text, files, reasoning, tools, approvals.
import type { UIMessage as AiUIMessage } from "ai";

export const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
export const pdf =
  "data:application/pdf;base64,JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCg==";

export const corpus: Record<string, AiUIMessage[]> = {
  "plain text chat": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Hello" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [{ type: "step-start" }, { type: "text", text: "Hi! How can I help?", state: "done" }],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Tell me a joke" }] },
  ],
  "system prompt and text with provider metadata": [
    { id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }] },
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "Cache this", providerMetadata: { anthropic: { cacheControl: { type: "ephemeral" } } } },
      ],
    },
  ],
  "image attachment": [
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "file", mediaType: "image/png", url: png, filename: "dot.png" },
        { type: "text", text: "What is in this picture?" },
      ],
    },
  ],
  "PDF attachment and a remote image": [
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "Summarise the report and compare with the chart" },
        { type: "file", mediaType: "application/pdf", url: pdf, filename: "report.pdf" },
        { type: "file", mediaType: "image/jpeg", url: "https://example.com/chart.jpg" },
      ],
    },
  ],
  "reasoning with a signature": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "What is 17 * 23?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "17*23 = 391",
          state: "done",
          providerMetadata: { anthropic: { signature: "sig" } },
        },
        { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "xyz" } } },
        { type: "text", text: "391", state: "done" },
      ],
    },
  ],
  "reasoning with providerMetadata through a tool loop, as useChat keeps it after a stream": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Oslo?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "The user wants the weather. I will call the tool.",
          state: "done",
          providerMetadata: { anthropic: { signature: "EqQBCkgIARABGAIiQL2Zg+/sig==" } },
        },
        {
          type: "reasoning",
          text: "",
          state: "done",
          providerMetadata: { anthropic: { redactedData: "EmwKAhgBEgy3va3pzix/redacted" } },
        },
        {
          type: "tool-weather",
          toolCallId: "toolu_1",
          state: "output-available",
          input: { city: "Oslo" },
          output: "3°C",
        },
        { type: "step-start" },
        {
          type: "reasoning",
          text: "3 degrees: say it.",
          state: "done",
          providerMetadata: { anthropic: { signature: "second-block-sig" } },
        },
        { type: "text", text: "It is 3°C in Oslo.", state: "done" },
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "And tomorrow?" }] },
  ],
  "reasoning metadata of other providers: nested JSON, several providers on one part": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Think" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "Thought one",
          state: "done",
          providerMetadata: {
            openai: { itemId: "rs_123", reasoningEncryptedContent: null },
            google: { thoughtSignature: "Cs4BAdHtim9" },
          },
        },
        {
          type: "reasoning",
          text: "Thought two",
          providerMetadata: { custom: { steps: [1, 2.5, { ok: true, note: "é😀" }], empty: {} } },
        },
        { type: "text", text: "Done", state: "done" },
      ],
    },
  ],
  "multi-step tool call": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Oslo?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "Let me check.", state: "done" },
        {
          type: "tool-weather",
          toolCallId: "c1",
          state: "output-available",
          input: { city: "Oslo" },
          output: { t: 3 },
        },
        { type: "step-start" },
        { type: "tool-forecast", toolCallId: "c2", state: "output-available", input: { days: 2 }, output: "sunny" },
        { type: "step-start" },
        { type: "text", text: "3 degrees, then sunny.", state: "done" },
      ],
    },
  ],
  "tool errors: parsed input and raw input": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Go" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "tool-lookup", toolCallId: "e1", state: "output-error", input: { q: 1 }, errorText: "timeout" },
        {
          type: "tool-lookup",
          toolCallId: "e2",
          state: "output-error",
          input: undefined,
          rawInput: { q: "raw" },
          errorText: "Invalid input for tool lookup",
        },
        {
          type: "dynamic-tool",
          toolName: "mcp_search",
          toolCallId: "e3",
          state: "output-error",
          input: { q: "x" },
          errorText: "MCP server gone",
        },
      ],
    },
  ],
  "denials with and without a reason": [
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-delete_all",
          toolCallId: "d1",
          state: "output-denied",
          input: {},
          approval: { id: "ap1", approved: false, reason: "Never delete my files" },
        },
        {
          type: "tool-delete_all",
          toolCallId: "d2",
          state: "output-denied",
          input: {},
          approval: { id: "ap2", approved: false },
        },
      ],
    },
  ],
  "approved and executed call, plus a call still awaiting approval": [
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m1",
          state: "output-available",
          input: { to: "a@b.c" },
          output: { sent: true },
          approval: { id: "ap1", approved: true },
        },
        {
          type: "tool-send_mail",
          toolCallId: "m2",
          state: "approval-requested",
          input: { to: "x@y.z" },
          approval: { id: "ap2" },
        },
      ],
    },
  ],
  "approval responses on their way to the server: approved, denied with a reason, approved with one": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Mail the team and delete the drafts" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "I need your go-ahead.", state: "done" },
        {
          type: "tool-send_mail",
          toolCallId: "r1",
          state: "approval-responded",
          input: { to: "team@corp.com" },
          approval: { id: "ap1", approved: true },
        },
        {
          type: "tool-delete_drafts",
          toolCallId: "r2",
          state: "approval-responded",
          input: {},
          approval: { id: "ap2", approved: false, reason: "Keep my drafts" },
        },
        {
          type: "dynamic-tool",
          toolName: "archive",
          toolCallId: "r3",
          state: "approval-responded",
          input: { folder: "old" },
          approval: { id: "ap3", approved: true, reason: "fine, it is old" },
        },
      ],
    },
  ],
  "a finished approval turn, then a denial with an empty reason": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Mail a@b.c" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m1",
          state: "output-available",
          input: { to: "a@b.c" },
          output: { sent: true },
          approval: { id: "ap1", approved: true, reason: "ok" },
        },
        { type: "step-start" },
        { type: "text", text: "Sent.", state: "done" },
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Now mail b@c.d" }] },
    {
      id: "a2",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m2",
          state: "output-denied",
          input: { to: "b@c.d" },
          approval: { id: "ap2", approved: false, reason: "" },
        },
        { type: "step-start" },
        { type: "text", text: "Not sent.", state: "done" },
      ],
    },
  ],
  "provider-executed web search": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "News today?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-web_search",
          toolCallId: "ws1",
          state: "output-available",
          input: { query: "news" },
          output: [{ url: "https://news.example", title: "News" }],
          providerExecuted: true,
        },
        { type: "text", text: "Here is the news.", state: "done" },
      ],
    },
  ],
  "provider-executed search beside a client tool in one step, then the answer": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather and news in Paris?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-web_search",
          toolCallId: "ws1",
          state: "output-available",
          input: { query: "Paris news" },
          output: [{ url: "https://news.example/paris", title: "Paris" }],
          providerExecuted: true,
        },
        {
          type: "tool-get_weather",
          toolCallId: "gw1",
          state: "output-available",
          input: { city: "Paris" },
          output: { temperature: 18 },
        },
        { type: "step-start" },
        { type: "text", text: "18 degrees, and here is the news.", state: "done" },
      ],
    },
  ],
  "a call awaiting approval alone in its assistant message": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Mail x@y.z" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m1",
          state: "approval-requested",
          input: { to: "x@y.z" },
          approval: { id: "ap1" },
        },
      ],
    },
  ],
  "a call left awaiting approval, then a new user message": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Archive the old folder" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "dynamic-tool",
          toolName: "archive",
          toolCallId: "r1",
          state: "approval-requested",
          input: { folder: "old" },
          approval: { id: "ap1" },
        },
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Never mind, what time is it?" }] },
  ],
  "dynamic tools, sources, data parts and an unfinished step": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Find it" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "dynamic-tool", toolName: "find", toolCallId: "f1", state: "output-available", input: {}, output: 42 },
        { type: "source-url", sourceId: "s1", url: "https://example.com" },
        { type: "step-start" },
        { type: "text", text: "Found 42, checking more.", state: "done" },
        { type: "tool-find", toolCallId: "f2", state: "input-available", input: { more: true } },
        { type: "tool-find", toolCallId: "f3", state: "input-streaming", input: undefined },
      ],
    },
  ],
};
