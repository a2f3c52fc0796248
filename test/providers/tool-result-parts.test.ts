import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent/agent";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { LanguageModel } from "../../src/models/language-model";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { tool } from "../../src/tools/tool";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicMessage, openaiCompletion } from "../servers/wire-formats";

// A tool that returns parts (issue 29): the run keeps them as parts in the tool message, stores
// them byte for byte, and each provider receives them the way it accepts them, on the wire.

startFakeLlmServerPerTest();

// A PNG header of a 2×3 image: enough for its media type to be read from it.
const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0,
  0, 0,
]);
const pngBase64 = Buffer.from(png).toString("base64");
const wav = Buffer.from("RIFF....WAVE").toString("base64");
const pdf = Buffer.from("%PDF-1.4 test").toString("base64");

const tools = {
  screenshot: tool({
    description: "Takes a screenshot",
    parameters: z.object({}),
    execute: async () => [
      { type: "text" as const, text: "Screenshot taken." },
      { type: "image" as const, image: png },
    ],
  }),
  record: tool({
    description: "Records a sound and a report",
    parameters: z.object({}),
    // The AI SDK's content output, as its toModelOutput gives it.
    execute: async () => ({
      type: "content",
      value: [
        { type: "file-data", data: wav, mediaType: "audio/wav" },
        { type: "file-data", data: pdf, mediaType: "application/pdf", filename: "report.pdf" },
      ],
    }),
  }),
};

const toolStep = [
  { id: "call_1", name: "screenshot", arguments: {} },
  { id: "call_2", name: "record", arguments: {} },
];

async function runWith(model: LanguageModel, store: InMemoryStore): Promise<void> {
  const agent = new Agent({ model, tools, memoryStore: store, sessionId: "s", maxSteps: 2 });
  const result = await agent.run("Look and listen");
  expect(result.text).toBe("Done.");
}

async function expectStoredParts(store: InMemoryStore): Promise<void> {
  const [, , screenshot, record] = await store.getMessages("s");
  expect(screenshot).toMatchObject({ role: "tool", toolCallId: "call_1", name: "screenshot" });
  const parts = screenshot!.content as { type: string; image?: Uint8Array }[];
  expect(parts.map((part) => part.type)).toEqual(["text", "image"]);
  expect(Buffer.from(parts[1]!.image!).equals(Buffer.from(png))).toBe(true);
  expect(record!.content).toEqual([
    { type: "file", data: wav, mediaType: "audio/wav" },
    { type: "file", data: pdf, mediaType: "application/pdf", filename: "report.pdf" },
  ]);
}

describe("a tool that returns parts, on the wire", () => {
  it("OpenAI Chat Completions: text tool messages, then one user message with the image and the PDF; audio named", async () => {
    server.enqueue(openaiCompletion({ toolCalls: toolStep }));
    server.enqueue(openaiCompletion({ text: "Done." }));
    const store = new InMemoryStore();
    await runWith(createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o"), store);
    expect(server.requests[1]!.body.messages.slice(-3)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "Screenshot taken." },
      {
        role: "tool",
        tool_call_id: "call_2",
        content: "[file (audio/wav) returned by the tool: not sent, OpenAI Chat Completions does not accept it here]",
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Image returned by tool screenshot (call_1):" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
          { type: "text", text: "File returned by tool record (call_2):" },
          { type: "file", file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${pdf}` } },
        ],
      },
    ]);
    await expectStoredParts(store);
  });

  it("Anthropic: image and document blocks inside tool_result; audio named in a text block", async () => {
    server.enqueue(anthropicMessage({ toolCalls: toolStep }));
    server.enqueue(anthropicMessage({ text: "Done." }));
    const store = new InMemoryStore();
    await runWith(createAnthropic({ apiKey: "sk-test", baseURL: server.url })("claude-sonnet-4-5"), store);
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "text", text: "Screenshot taken." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "call_2",
          // The last block of the request: the prompt-caching breakpoint (docs/providers.md).
          cache_control: { type: "ephemeral" },
          content: [
            {
              type: "text",
              text: "[file (audio/wav) returned by the tool: not sent, Anthropic does not accept it here]",
            },
            {
              type: "document",
              source: { type: "base64", media_type: "application/pdf", data: pdf },
              title: "report.pdf",
            },
          ],
        },
      ],
    });
    await expectStoredParts(store);
  });
});
