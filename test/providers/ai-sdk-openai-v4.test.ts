// What spec v4 (`ai` 7 provider packages) changed, through @ai-sdk/openai 4 (`@ai-sdk/openai-v4`)
// pointed at the loopback server speaking OpenAI's wire formats: file data sent tagged
// (`{ type: "data" }`, `{ type: "url" }`), tool results with files as v4's one `file` variant,
// usage with cache reads and reasoning tokens, finish reasons, reasoning items, and embedding
// models. The shared behaviour (text, streams, tool loops, aborts, errors) runs on @ai-sdk/openai 3
// and 4 alike in ai-sdk-openai.test.ts.
import { createOpenAI } from "@ai-sdk/openai-v4";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import type { AgentMessage } from "../../src/messages/agent-message";
import { fromAISDK } from "../../src/models/ai-sdk/from-ai-sdk";
import { SemanticMemoryProvider } from "../../src/providers/semantic-memory-provider";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import type { ScriptedResponse } from "../servers/fake-llm-server";
import { openaiCompletion, openaiError, openaiResponse } from "../servers/wire-formats";

startFakeLlmServerPerTest();

const provider = () => createOpenAI({ apiKey: "sk-v4", baseURL: `${server.url}/v1` });
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const pngBase64 = Buffer.from(png).toString("base64");

/** `response` with its JSON body changed by `edit` (a field the shared builders do not script). */
function edited(response: ScriptedResponse, edit: (body: any) => void): ScriptedResponse {
  if (response.kind !== "json") throw new Error("a JSON response is edited");
  const body = structuredClone(response.body);
  edit(body);
  return { ...response, body };
}

const screenshotTurn: AgentMessage[] = [
  { role: "user", content: "Take a screenshot" },
  { role: "assistant", content: "", toolCalls: [{ id: "call_shot", name: "screenshot", arguments: {} }] },
  {
    role: "tool",
    toolCallId: "call_shot",
    name: "screenshot",
    content: [
      { type: "text", text: "taken" },
      { type: "image", image: png },
      { type: "image", image: "https://example.com/shot" },
    ],
  },
];

describe("@ai-sdk/openai 4 (spec v4): what changed from v3 (loopback)", () => {
  it("sends user images and files with tagged data: bytes and base64 inline, remote URLs as URLs", async () => {
    server.enqueue(openaiCompletion({ text: "A cat and a report." }));
    const model = provider().chat("gpt-4o");
    expect(model.specificationVersion).toBe("v4");
    const result = await new Agent({ model }).run({
      input: [
        { type: "text", text: "What is here?" },
        { type: "image", image: png },
        { type: "image", image: "https://example.com/cat" },
        { type: "file", data: pngBase64, mediaType: "application/pdf", filename: "report.pdf" },
      ],
    });
    expect(result.text).toBe("A cat and a report.");
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is here?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
          { type: "image_url", image_url: { url: "https://example.com/cat" } },
          { type: "file", file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${pngBase64}` } },
        ],
      },
    ]);
  });

  it("sends a tool result's images as v4 file parts (Responses API input_image)", async () => {
    server.enqueue(openaiResponse({ text: "A login page." }));
    const model = fromAISDK(provider().responses("gpt-4o"));
    const result = await model.doGenerate({ messages: screenshotTurn, tools: [] });
    expect(result.text).toBe("A login page.");
    const output = server.requests[0]!.body.input.find((item: any) => item.type === "function_call_output");
    expect(output).toEqual({
      type: "function_call_output",
      call_id: "call_shot",
      output: [
        { type: "input_text", text: "taken" },
        { type: "input_image", image_url: `data:image/png;base64,${pngBase64}` },
        { type: "input_image", image_url: "https://example.com/shot" },
      ],
    });
  });

  it("reports usage with cache reads (input) and reasoning tokens (in the output count), and finish reasons", async () => {
    server.enqueue(
      edited(
        openaiCompletion({ text: "Cut", usage: { inputTokens: 100, outputTokens: 30, cacheReadTokens: 60 } }),
        (body) => {
          body.choices[0].finish_reason = "length";
          body.usage.completion_tokens_details = { reasoning_tokens: 20 };
        },
      ),
      edited(openaiResponse({ text: "Done", usage: { inputTokens: 50, outputTokens: 12 } }), (body) => {
        body.usage.input_tokens_details = { cached_tokens: 40 };
        body.usage.output_tokens_details = { reasoning_tokens: 8 };
      }),
    );
    const chat = await fromAISDK(provider().chat("gpt-4o")).doGenerate({
      messages: [{ role: "user", content: "Long" }],
      tools: [],
    });
    expect(chat.finishReason).toBe("length");
    expect(chat.usage).toEqual({
      inputTokens: 100,
      outputTokens: 30,
      totalTokens: 130,
      cachedInputTokens: 60,
      reasoningTokens: 20,
    });

    const responses = await fromAISDK(provider().responses("gpt-4o")).doGenerate({
      messages: [{ role: "user", content: "Short" }],
      tools: [],
    });
    expect(responses.finishReason).toBe("stop");
    expect(responses.usage).toEqual({
      inputTokens: 50,
      outputTokens: 12,
      totalTokens: 62,
      cachedInputTokens: 40,
      reasoningTokens: 8,
    });
  });

  it("keeps a Responses reasoning item as a reasoning part with its provider metadata, and sends it back", async () => {
    const reasoningItem = {
      type: "reasoning",
      id: "rs_1",
      encrypted_content: "opaque-state",
      summary: [{ type: "summary_text", text: "Adding two and two." }],
    };
    server.enqueue(
      edited(openaiResponse({ text: "4" }), (body) => body.output.unshift(reasoningItem)),
      openaiResponse({ text: "8" }),
    );
    const model = fromAISDK(provider().responses("o4-mini"), {
      providerOptions: { openai: { store: false, include: ["reasoning.encrypted_content"] } },
    });
    const first = await model.doGenerate({ messages: [{ role: "user", content: "2+2?" }], tools: [] });
    expect(first.text).toBe("4");
    expect(first.reasoning).toEqual([
      {
        type: "reasoning",
        text: "Adding two and two.",
        providerOptions: {
          openai: expect.objectContaining({ itemId: "rs_1", reasoningEncryptedContent: "opaque-state" }),
        },
      },
    ]);

    await model.doGenerate({
      messages: [
        { role: "user", content: "2+2?" },
        { role: "assistant", content: [...first.reasoning!, { type: "text", text: "4" }] },
        { role: "user", content: "Doubled?" },
      ],
      tools: [],
    });
    const sentBack = server.requests[1]!.body.input.find((item: any) => item.type === "reasoning");
    expect(sentBack).toMatchObject({
      type: "reasoning",
      id: "rs_1",
      encrypted_content: "opaque-state",
      summary: [{ type: "summary_text", text: "Adding two and two." }],
    });
  });

  it("embeds with an @ai-sdk/openai 4 embedding model through fromAISDK, in input order, with usage", async () => {
    server.enqueue({
      kind: "json",
      body: {
        object: "list",
        model: "text-embedding-3-small",
        data: [
          { object: "embedding", index: 0, embedding: [1, -1] },
          { object: "embedding", index: 1, embedding: [0.5, 0.25] },
        ],
        usage: { prompt_tokens: 6, total_tokens: 6 },
      },
    });
    const aiSDKModel = provider().embedding("text-embedding-3-small");
    expect(aiSDKModel.specificationVersion).toBe("v4");
    const embedder = fromAISDK(aiSDKModel, { providerOptions: { openai: { dimensions: 2 } } });
    expect(embedder).toMatchObject({ provider: "openai", modelId: "text-embedding-3-small", maxValuesPerCall: 2048 });
    const result = await embedder.doEmbed({ values: ["first", "second"] });
    expect(result).toEqual({
      embeddings: [
        [1, -1],
        [0.5, 0.25],
      ],
      usage: { inputTokens: 6 },
    });
    expect(server.requests[0]!.path).toBe("/v1/embeddings");
    expect(server.requests[0]!.body).toMatchObject({
      model: "text-embedding-3-small",
      input: ["first", "second"],
      dimensions: 2,
    });
  });

  it("takes an @ai-sdk/openai 4 embedding model as SemanticMemoryProvider's embedder as is (retried as fromAISDK does)", async () => {
    const embeddings = (vectors: number[][]): ScriptedResponse => ({
      kind: "json",
      body: {
        object: "list",
        model: "text-embedding-3-small",
        data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    });
    server.enqueue(
      openaiError(503, "Overloaded", { "retry-after-ms": "0" }),
      embeddings([
        [1, 0],
        [0, 1],
      ]),
      embeddings([[0.1, 0.9]]),
    );
    const memory = new SemanticMemoryProvider({
      embedder: provider().embedding("text-embedding-3-small"),
      ranking: "vector",
    });
    await memory.write(
      [
        { id: "m1", role: "user", content: "I keep bees in the garden." },
        { id: "m2", role: "user", content: "My sister plays the cello." },
      ],
      { sessionId: "s" },
    );
    const [best] = await memory.read({ sessionId: "s", query: "Who plays music?", limit: 1 });
    expect(best!.content).toBe("My sister plays the cello.");
    expect(server.requests.map((request) => [request.path, request.body.input])).toEqual([
      ["/v1/embeddings", ["I keep bees in the garden.", "My sister plays the cello."]],
      ["/v1/embeddings", ["I keep bees in the garden.", "My sister plays the cello."]],
      ["/v1/embeddings", ["Who plays music?"]],
    ]);
  });
});
