// The embedders users already have, through the loopback server speaking OpenAI's embeddings wire
// format: agentcore's OpenAI adapter on the official `openai` client, an AI SDK embedding model
// (@ai-sdk/openai 3, the line of `ai` 6) through `fromAISDK`, and a plain function through
// `fromEmbedFunction`. Each batches, retries through its own client, and refuses vectors of the
// wrong length with an `EmbeddingDimensionError`.
import { createOpenAI as createAISDKOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { APICallError } from "../../src/errors/api-call-error";
import { EmbeddingDimensionError } from "../../src/errors/embedding-dimension-error";
import { fromAISDK } from "../../src/models/ai-sdk/from-ai-sdk";
import type { EmbeddingModel } from "../../src/models/embedding-model";
import { fromEmbedFunction } from "../../src/models/function-embedding-model";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { SemanticMemoryProvider } from "../../src/providers/semantic-memory-provider";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import type { ScriptedResponse } from "../servers/fake-llm-server";
import { openaiError } from "../servers/wire-formats";

startFakeLlmServerPerTest();

/** An embedding per text: its length and its first character's code (any length asked for). */
const vectorOf = (text: string, dimensions = 2) => [text.length, text.charCodeAt(0), 1, 1].slice(0, dimensions);

/** The server's answer to one embeddings request for `texts`, vectors of `dimensions`. */
function embeddings(texts: string[], dimensions = 2): ScriptedResponse {
  return {
    kind: "json",
    body: {
      object: "list",
      model: "text-embedding-3-small",
      data: texts.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text, dimensions) })),
      usage: { prompt_tokens: texts.length, total_tokens: texts.length },
    },
  };
}
/** Retryable failures that ask for no wait, so the clients retry at once. */
const busy = () => [
  openaiError(429, "slow down", { "retry-after-ms": "0" }),
  openaiError(500, "oops", { "retry-after-ms": "0" }),
];
const inputs = () => server.requests.map((request) => request.body.input);

const ours = (options: { maxRetries?: number } = {}) =>
  createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1`, ...options });
const aiSDK = () => createAISDKOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` });

/** Each adapter on a model whose vector length it does not know in advance (unless told `dimensions`). */
const adapters: [string, (options: { maxValuesPerCall?: number; dimensions?: number }) => EmbeddingModel][] = [
  ["OpenAI (official client)", (options) => ours().embedding("my-embedder", options)],
  ["AI SDK (@ai-sdk/openai 3)", (options) => fromAISDK(aiSDK().embedding("my-embedder"), options)],
];

describe.each(adapters)("%s embedder on the wire", (_, make) => {
  it("splits a long list into requests of at most maxValuesPerCall inputs, vectors in input order", async () => {
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    server.enqueue(embeddings(texts.slice(0, 2)), embeddings(texts.slice(2, 4)), embeddings(texts.slice(4)));
    const result = await make({ maxValuesPerCall: 2 }).doEmbed({ values: texts });
    expect(result.embeddings).toEqual(texts.map((text) => vectorOf(text)));
    expect(inputs()).toEqual([["a", "bb"], ["ccc", "dddd"], ["eeeee"]]);
    expect(server.requests.every((request) => request.path === "/v1/embeddings")).toBe(true);
    expect(server.requests[0]!.body.model).toBe("my-embedder");
  });

  it("retries a 429 and a 500 and then succeeds, sending the same batch each time", async () => {
    server.enqueue(...busy(), embeddings(["hello"]));
    const result = await make({}).doEmbed({ values: ["hello"] });
    expect(result.embeddings).toEqual([vectorOf("hello")]);
    expect(inputs()).toEqual([["hello"], ["hello"], ["hello"]]);
  });

  it("gives up after its retries with an APICallError carrying the status", async () => {
    server.enqueue(...busy(), openaiError(429, "still slow", { "retry-after-ms": "0" }));
    const error = await make({})
      .doEmbed({ values: ["hello"] })
      .catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(429);
    expect(server.requests).toHaveLength(3);
  });

  it("refuses vectors of another length than `dimensions` with an EmbeddingDimensionError", async () => {
    server.enqueue(embeddings(["a", "bb"], 3));
    const error = await make({ dimensions: 2 })
      .doEmbed({ values: ["a", "bb"] })
      .catch((caught: unknown) => caught);
    expect(EmbeddingDimensionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expected: 2, actual: 3, position: 0, modelId: "my-embedder" });
  });

  it("without `dimensions`, refuses a batch whose vectors change length from the first batch's", async () => {
    server.enqueue(embeddings(["a", "bb"], 2), embeddings(["ccc"], 4));
    const provider = new SemanticMemoryProvider({ embedder: make({ maxValuesPerCall: 2 }) });
    const error = await provider
      .write(
        ["a", "bb", "ccc"].map((content) => ({ role: "user" as const, content })),
        { sessionId: "s" },
      )
      .catch((caught: unknown) => caught);
    expect(EmbeddingDimensionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expected: 2, actual: 4 });
    expect(await provider.entries("s")).toEqual([]);
  });
});

describe("OpenAI embedder defaults", () => {
  it("uses text-embedding-3-small when given no model id, and holds it to its 1536 dimensions", async () => {
    const model = ours().embedding();
    expect(model).toMatchObject({ modelId: "text-embedding-3-small", dimensions: 1536, maxValuesPerCall: 2048 });
    server.enqueue(embeddings(["x"], 2));
    await expect(model.doEmbed({ values: ["x"] })).rejects.toMatchObject({ expected: 1536, actual: 2 });
    expect(server.requests[0]!.body.model).toBe("text-embedding-3-small");
  });

  it("retries as its client is told: maxRetries 0 sends one request", async () => {
    server.enqueue(...busy());
    await expect(
      ours({ maxRetries: 0 })
        .embedding()
        .doEmbed({ values: ["x"] }),
    ).rejects.toMatchObject({
      statusCode: 429,
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe("fromEmbedFunction: a plain (texts) => Promise<number[][]>", () => {
  /** A user's own function: one POST a batch to the loopback server, as a hand-written client would. */
  const viaFetch = async (texts: string[]) => {
    const response = await fetch(`${server.url}/v1/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "text-embedding-3-small", input: texts, encoding_format: "float" }),
    });
    const body = (await response.json()) as { data: { index: number; embedding: number[] }[] };
    return body.data.sort((left, right) => left.index - right.index).map((item) => item.embedding);
  };

  it("batches by maxValuesPerCall and returns the vectors in order", async () => {
    const texts = ["a", "bb", "ccc"];
    server.enqueue(embeddings(texts.slice(0, 2)), embeddings(texts.slice(2)));
    const model = fromEmbedFunction(viaFetch, { maxValuesPerCall: 2, modelId: "mine" });
    expect((await model.doEmbed({ values: texts })).embeddings).toEqual(texts.map((text) => vectorOf(text)));
    expect(inputs()).toEqual([["a", "bb"], ["ccc"]]);
  });

  it("is accepted as an embedder as is, and a length mismatch is an EmbeddingDimensionError", async () => {
    server.enqueue(embeddings(["a"], 2), embeddings(["b"], 2));
    const provider = new SemanticMemoryProvider({ embedder: viaFetch, ranking: "vector" });
    await provider.write([{ id: "m1", role: "user", content: "a" }], { sessionId: "s" });
    expect((await provider.read({ sessionId: "s", query: "b" }))[0]!.messageId).toBe("m1");

    const strict = fromEmbedFunction(async (texts) => texts.map(() => [1, 2, 3]), { dimensions: 2 });
    await expect(strict.doEmbed({ values: ["x"] })).rejects.toSatisfy(
      (error: unknown) => EmbeddingDimensionError.isInstance(error) && error.actual === 3 && error.expected === 2,
    );
  });
});
