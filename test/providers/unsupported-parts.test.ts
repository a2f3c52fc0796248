import { createOpenAI as createAISDKOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { UnsupportedPartError } from "../../src/errors/unsupported-part-error";
import type { AgentMessage } from "../../src/messages/agent-message";
import type { UserContentPart } from "../../src/messages/content-parts";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { LanguageModel } from "../../src/models/language-model";
import { createOpenAICompatible } from "../../src/models/openai-compatible/create-openai-compatible";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { fromAISDK } from "../../src/models/ai-sdk/from-ai-sdk";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicMessage, openaiCompletion, openaiResponse, type ScriptedAnswer } from "../servers/wire-formats";
import type { ScriptedResponse } from "../servers/fake-llm-server";

// Issue 46.4 on the wire: a part the provider's API cannot take is refused before anything is
// stored or sent, and one already stored goes as a text placeholder (the loopback server sees it).

startFakeLlmServerPerTest();

interface Case {
  name: string;
  model: () => LanguageModel;
  answer: (answer: ScriptedAnswer) => ScriptedResponse;
  /** A part the API cannot take. */
  part: UserContentPart;
  /** The stored user message's content as it reaches the wire. */
  wire: (body: Record<string, unknown>) => unknown;
}

const remotePdf: UserContentPart = {
  type: "file",
  data: "https://example.com/report.pdf",
  mediaType: "application/pdf",
  filename: "report.pdf",
};
const cases: Case[] = [
  {
    name: "OpenAI Chat Completions, a remote PDF",
    model: () => createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o"),
    answer: openaiCompletion,
    part: remotePdf,
    wire: (body) => (body.messages as { content: unknown }[])[0]!.content,
  },
  {
    name: "OpenAI Chat Completions, audio",
    model: () => createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o"),
    answer: openaiCompletion,
    part: { type: "file", data: "https://example.com/talk.wav", mediaType: "audio/wav" },
    wire: (body) => (body.messages as { content: unknown }[])[0]!.content,
  },
  {
    name: "an OpenAI-compatible server, a remote PDF",
    model: () => createOpenAICompatible({ name: "local", baseURL: `${server.url}/v1`, register: false })("llama"),
    answer: openaiCompletion,
    part: remotePdf,
    wire: (body) => (body.messages as { content: unknown }[])[0]!.content,
  },
  {
    name: "Anthropic, a remote text file",
    model: () => createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4"),
    answer: anthropicMessage,
    part: { type: "file", data: "https://example.com/notes.txt", mediaType: "text/plain", filename: "notes.txt" },
    wire: (body) => (body.messages as { content: unknown }[])[0]!.content,
  },
  {
    name: "@ai-sdk/openai chat, a remote PDF",
    model: () => fromAISDK(createAISDKOpenAI({ apiKey: "sk-aisdk", baseURL: `${server.url}/v1` }).chat("gpt-4o")),
    answer: openaiCompletion,
    part: remotePdf,
    wire: (body) => (body.messages as { content: unknown }[])[0]!.content,
  },
];

const textPart = { type: "text", text: "Look at this" };

describe.each(cases)("$name", ({ model, answer, part, wire }) => {
  it("is refused before anything is stored or sent", async () => {
    const memoryStore = new InMemoryStore();
    const agent = new Agent({ model: model(), memoryStore, sessionId: "s" });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await agent.run({ input: [{ type: "text", text: "Look at this" }, part] }).catch((e: unknown) => e);
      expect(UnsupportedPartError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ partIndex: 1, remote: true, modelId: expect.any(String) });
    }
    expect(server.requests).toHaveLength(0);
    expect(await memoryStore.getMessages("s")).toEqual([]);
  });

  it("goes as a text placeholder when a session holds it, and the run answers", async () => {
    const memoryStore = new InMemoryStore();
    const stored: AgentMessage[] = [
      { id: "u1", role: "user", content: [{ type: "text", text: "Look at this" }, part], timestamp: 1 },
      { id: "a1", role: "assistant", content: "Seen.", timestamp: 2 },
    ];
    await memoryStore.setMessages("s", stored);
    server.enqueue(answer({ text: "Fine." }));
    const used = model();
    const result = await new Agent({ model: used, memoryStore, sessionId: "s", cacheControl: false }).run("And?");

    expect(result.text).toBe("Fine.");
    expect(server.requests).toHaveLength(1);
    const placeholder = `[file${part.type === "file" && part.filename ? ` ${part.filename}` : ""} (${(part as { mediaType: string }).mediaType}, given by URL) from the user: not sent, ${used.provider}/${used.modelId} does not take it]`;
    expect(wire(server.requests[0]!.body)).toEqual([textPart, { type: "text", text: placeholder }]);
    expect((await memoryStore.getMessages("s")).slice(0, 2)).toEqual(stored);
  });
});

describe("a remote PDF the API takes by URL", () => {
  it("reaches @ai-sdk/openai's Responses API and Anthropic as a URL", async () => {
    server.enqueue(openaiResponse({ text: "ok" }), anthropicMessage({ text: "ok" }));
    const responses = fromAISDK(createAISDKOpenAI({ apiKey: "sk-aisdk", baseURL: `${server.url}/v1` })("gpt-4o"));
    await new Agent({ model: responses }).run({ input: [textPart as UserContentPart, remotePdf] });
    expect(JSON.stringify(server.requests[0]!.body)).toContain("https://example.com/report.pdf");

    const anthropic = createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4");
    await new Agent({ model: anthropic, cacheControl: false }).run({ input: [textPart as UserContentPart, remotePdf] });
    expect((server.requests[1]!.body.messages as { content: unknown[] }[])[0]!.content[1]).toEqual({
      type: "document",
      source: { type: "url", url: "https://example.com/report.pdf" },
      title: "report.pdf",
    });
  });
});
