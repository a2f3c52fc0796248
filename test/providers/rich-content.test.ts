import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { InvalidMessageError } from "../../src/errors/invalid-message-error";
import type { AgentMessage } from "../../src/messages/agent-message";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { LanguageModel } from "../../src/models/language-model";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicMessage, anthropicStream, openaiCompletion } from "../servers/wire-formats";
import { weather } from "./helpers";

// Wire tests of content parts (issue 29): the exact request bodies the official SDK clients send
// to a loopback server for images, PDFs, tool results with images, and Anthropic thinking.

startFakeLlmServerPerTest();

// A PNG header (signature and IHDR of a 2×3 image): enough for the media type to be read from it.
const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0,
  0, 0,
]);
const pngBase64 = Buffer.from(png).toString("base64");
const pdfBase64 = Buffer.from("%PDF-1.4 test").toString("base64");

const userWithMedia: AgentMessage = {
  role: "user",
  content: [
    { type: "text", text: "Look:" },
    { type: "image", image: png },
    { type: "image", image: pngBase64, mediaType: "image/png" },
    { type: "image", image: `data:image/webp;base64,${pngBase64}` },
    { type: "image", image: "https://example.com/cat.jpg" },
    { type: "file", data: pdfBase64, mediaType: "application/pdf", filename: "report.pdf" },
  ],
};

const toolLoopWithImage: AgentMessage[] = [
  { role: "user", content: "Screenshot both" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "call_1", name: "screenshot", arguments: {} },
      { id: "call_2", name: "screenshot", arguments: {} },
    ],
  },
  {
    role: "tool",
    toolCallId: "call_1",
    name: "screenshot",
    content: [
      { type: "text", text: "taken" },
      { type: "image", image: png },
    ],
  },
  { role: "tool", toolCallId: "call_2", name: "screenshot", content: "failed" },
];

const call = (messages: AgentMessage[]) => ({ messages, tools: [], maxRetries: 0 });

describe("OpenAI Chat Completions: content parts on the wire", () => {
  const model = (): LanguageModel => createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o");

  it("sends images as image_url (bytes, base64 and data: URLs inline, remote URLs as is) and PDFs as file", async () => {
    server.enqueue(openaiCompletion({ text: "ok" }));
    await model().doGenerate(call([userWithMedia]));
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
          { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
          { type: "image_url", image_url: { url: `data:image/webp;base64,${pngBase64}` } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          {
            type: "file",
            file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${pdfBase64}` },
          },
        ],
      },
    ]);
  });

  it("sends tool results as text and their images in one user message after the step's tool messages", async () => {
    server.enqueue(openaiCompletion({ text: "ok" }));
    await model().doGenerate(call(toolLoopWithImage));
    expect(server.requests[0]!.body.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "taken" },
      { role: "tool", tool_call_id: "call_2", content: "failed" },
      {
        role: "user",
        content: [
          { type: "text", text: "Image returned by tool screenshot (call_1):" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
        ],
      },
    ]);
  });

  it("leaves reasoning out (Chat Completions takes none) and rejects a file it cannot take", async () => {
    server.enqueue(openaiCompletion({ text: "ok" }));
    await model().doGenerate(
      call([
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "thinking", providerOptions: { anthropic: { signature: "s" } } },
            { type: "text", text: "hello" },
          ],
        },
        { role: "user", content: "again" },
      ]),
    );
    expect(server.requests[0]!.body.messages[1]).toEqual({ role: "assistant", content: "hello" });
    const rejected = model().doGenerate(
      call([
        { role: "user", content: [{ type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" }] },
      ]),
    );
    await expect(rejected).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(rejected).rejects.toThrow(/remote URL/);
  });
});

describe("Anthropic Messages: content parts on the wire", () => {
  const model = (): LanguageModel => createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4");

  it("sends images as image blocks (base64 or url source) and files as document blocks", async () => {
    server.enqueue(anthropicMessage({ text: "ok" }));
    await model().doGenerate(
      call([
        {
          ...userWithMedia,
          content: [
            ...(userWithMedia.content as never[]),
            { type: "file", data: "https://example.com/b.pdf", mediaType: "application/pdf" },
            { type: "file", data: Buffer.from("plain notes").toString("base64"), mediaType: "text/plain" },
          ],
        } as AgentMessage,
      ]),
    );
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          { type: "image", source: { type: "base64", media_type: "image/webp", data: pngBase64 } },
          { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: pdfBase64 },
            title: "report.pdf",
          },
          { type: "document", source: { type: "url", url: "https://example.com/b.pdf" } },
          { type: "document", source: { type: "text", media_type: "text/plain", data: "plain notes" } },
        ],
      },
    ]);
  });

  it("sends a tool result with an image as text and image blocks", async () => {
    server.enqueue(anthropicMessage({ text: "ok" }));
    await model().doGenerate(call(toolLoopWithImage));
    expect(server.requests[0]!.body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "text", text: "taken" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          ],
        },
        { type: "tool_result", tool_use_id: "call_2", content: "failed" },
      ],
    });
  });

  it("sends reasoning back as thinking / redacted_thinking first, and drops reasoning without a signature", async () => {
    server.enqueue(anthropicMessage({ text: "ok" }));
    await model().doGenerate(
      call([
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "hello" },
            { type: "reasoning", text: "from elsewhere" },
            { type: "reasoning", text: "mine", providerOptions: { anthropic: { signature: "sig-1" } } },
            { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "opaque" } } },
          ],
          toolCalls: [{ id: "toolu_1", name: "f", arguments: {} }],
        },
        { role: "tool", toolCallId: "toolu_1", name: "f", content: "r" },
      ]),
    );
    expect(server.requests[0]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "mine", signature: "sig-1" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "hello" },
        { type: "tool_use", id: "toolu_1", name: "f", input: {} },
      ],
    });
  });

  it.each(["run", "stream"] as const)(
    "keeps thinking with its signature through a tool loop: stored first, sent back first (%s)",
    async (mode) => {
      const thinking = [
        { thinking: "The user wants the weather; call the tool.", signature: "EqQBCkYIBxgCKkB-signature==" },
        { redactedData: "EmwKAhgBEgy-redacted" },
      ];
      const answers = [
        {
          thinking,
          text: "Let me check.",
          toolCalls: [{ id: "toolu_a", name: "get_weather", arguments: { city: "Oslo" } }],
        },
        { text: "4°C in Oslo." },
      ];
      server.enqueue(...answers.map((answer) => (mode === "run" ? anthropicMessage(answer) : anthropicStream(answer))));
      const store = new InMemoryStore();
      const agent = new Agent({ model: model(), memoryStore: store, sessionId: "s1", tools: { get_weather: weather } });
      const options = "Weather in Oslo?";
      if (mode === "run") await agent.run(options);
      else await agent.stream(options).response;

      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.body.messages[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: thinking[0]!.thinking, signature: thinking[0]!.signature },
          { type: "redacted_thinking", data: "EmwKAhgBEgy-redacted" },
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_a", name: "get_weather", input: { city: "Oslo" } },
        ],
      });
      const stored = await store.getMessages("s1");
      expect(stored[1]!.content).toEqual([
        {
          type: "reasoning",
          text: thinking[0]!.thinking,
          providerOptions: { anthropic: { signature: thinking[0]!.signature } },
        },
        { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "EmwKAhgBEgy-redacted" } } },
        { type: "text", text: "Let me check." },
      ]);
      expect(stored[3]!.content).toBe("4°C in Oslo.");
    },
  );
});
