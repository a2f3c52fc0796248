import { APICallError as AISDKAPICallError } from "ai-v7";
import { MockEmbeddingModelV4 } from "ai-v7/test";
import { MockEmbeddingModelV3 } from "ai/test";
import type { EmbeddingModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import type { EmbeddingModelV4, LanguageModelV4 } from "@ai-sdk/provider-v4";
import { describe, expect, expectTypeOf, it } from "vitest";
import { APICallError } from "../../errors/api-call-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { embedAll } from "../../providers/embed-all";
import { AISDKEmbeddingModelAdapter } from "./ai-sdk-embedding-model";
import type { AISDKEmbeddingModel, AISDKLanguageModel } from "./ai-sdk-types";
import { fromAISDK } from "./from-ai-sdk";

// AI SDK embedding models (the AI SDK's own mocks: spec v4 of `ai` 7, v3 of `ai` 6) as agentcore
// `EmbeddingModel`s, through the call boundary: what `doEmbed` receives, what comes back.

/** An embedding per value: its length, then its first character's code. */
const vectorOf = (value: string) => [value.length, value.charCodeAt(0)];

describe("fromAISDK with an AI SDK embedding model", () => {
  /** What the mocks' `doEmbed` receives, recorded, and its answer. */
  const recordingEmbed = (calls: unknown[]) => async (options: { values: string[] }) => {
    calls.push(options);
    return { embeddings: options.values.map(vectorOf), usage: { tokens: options.values.length * 3 }, warnings: [] };
  };
  const settings = { provider: "openai.embedding", modelId: "e-1", maxEmbeddingsPerCall: 2 };

  it.each([
    ["v4", (calls: unknown[]) => new MockEmbeddingModelV4({ ...settings, doEmbed: recordingEmbed(calls) })],
    ["v3", (calls: unknown[]) => new MockEmbeddingModelV3({ ...settings, doEmbed: recordingEmbed(calls) })],
  ] as const)(
    "embeds in order over calls of at most maxEmbeddingsPerCall values, summing usage (%s)",
    async (_, make) => {
      const calls: unknown[] = [];
      const embedder = fromAISDK(make(calls), { headers: { "x-team": "memory" } });
      expect(embedder).toMatchObject({ provider: "openai", modelId: "e-1", maxValuesPerCall: 2 });
      const abortSignal = new AbortController().signal;
      const result = await embedder.doEmbed({ values: ["a", "bb", "ccc"], abortSignal });
      expect(result).toEqual({
        embeddings: [vectorOf("a"), vectorOf("bb"), vectorOf("ccc")],
        usage: { inputTokens: 9 },
      });
      expect(calls).toEqual([
        { values: ["a", "bb"], abortSignal, headers: { "x-team": "memory" } },
        { values: ["ccc"], abortSignal, headers: { "x-team": "memory" } },
      ]);
      expect(await embedAll(embedder, ["dddd"])).toEqual([vectorOf("dddd")]);
    },
  );

  it("reads a maxEmbeddingsPerCall given as a promise, and makes no call for no values", async () => {
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: Promise.resolve(1),
      doEmbed: async ({ values }) => ({ embeddings: values.map(vectorOf), warnings: [] }),
    });
    const embedder = fromAISDK(model);
    expect(embedder.maxValuesPerCall).toBeUndefined();
    expect(await embedder.doEmbed({ values: ["x", "yy"] })).toEqual({ embeddings: [vectorOf("x"), vectorOf("yy")] });
    expect(await embedder.doEmbed({ values: [] })).toEqual({ embeddings: [] });
  });

  it("retries a retryable AI SDK APICallError and converts a final one; a wrong count is an APICallError", async () => {
    let attempts = 0;
    const flaky = new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        attempts += 1;
        if (attempts === 1) {
          throw new AISDKAPICallError({
            message: "Overloaded",
            url: "http://127.0.0.1/v1/embeddings",
            requestBodyValues: {},
            statusCode: 503,
            responseHeaders: { "retry-after-ms": "1" },
          });
        }
        return { embeddings: values.map(vectorOf), warnings: [] };
      },
    });
    expect((await fromAISDK(flaky).doEmbed({ values: ["a"] })).embeddings).toEqual([vectorOf("a")]);
    expect(attempts).toBe(2);

    const refused = new MockEmbeddingModelV4({
      provider: "openai.embedding",
      modelId: "e-1",
      doEmbed: async () => {
        throw new AISDKAPICallError({ message: "Bad input", url: "u", requestBodyValues: {}, statusCode: 400 });
      },
    });
    await expect(fromAISDK(refused).doEmbed({ values: ["a"] })).rejects.toMatchObject({
      name: "APICallError",
      provider: "openai",
      statusCode: 400,
      isRetryable: false,
    });

    const short = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 10,
      doEmbed: async () => ({ embeddings: [[1]], warnings: [] }),
    });
    const error = await fromAISDK(short)
      .doEmbed({ values: ["a", "b"] })
      .catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/answered 1 embeddings for 2 values/);
  });

  it("refuses an embedding model of another specification version, naming the ones it takes", () => {
    const v5 = {
      specificationVersion: "v5",
      provider: "p",
      modelId: "m",
      maxEmbeddingsPerCall: 1,
      doEmbed: async () => ({}),
    };
    expect(() => fromAISDK(v5 as never)).toThrow(InvalidArgumentError);
    expect(() => fromAISDK(v5 as never)).toThrow(/embedding model has specification "v5".*"v2".*"v3".*"v4"/);
    const wrapped = fromAISDK(new MockEmbeddingModelV4());
    expect(wrapped).toBeInstanceOf(AISDKEmbeddingModelAdapter);
    expect(fromAISDK(wrapped as never, { headers: { a: "b" } })).not.toBe(wrapped);
  });
});

describe("agentcore's structural AI SDK types", () => {
  it("take @ai-sdk/provider's v3 and v4 model types (checked by tsc)", () => {
    expectTypeOf<LanguageModelV4>().toExtend<AISDKLanguageModel>();
    expectTypeOf<LanguageModelV3>().toExtend<AISDKLanguageModel>();
    expectTypeOf<EmbeddingModelV4>().toExtend<AISDKEmbeddingModel>();
    expectTypeOf<EmbeddingModelV3>().toExtend<AISDKEmbeddingModel>();
  });
});
