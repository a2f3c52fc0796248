import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { EmbeddingModel } from "../embedding-model";
import type { LanguageModel } from "../language-model";
import { AISDKEmbeddingModelAdapter, type AISDKEmbeddingModelSettings } from "./ai-sdk-embedding-model";
import { AISDKLanguageModelAdapter, type AISDKModelSettings } from "./ai-sdk-language-model";
import type { AISDKEmbeddingModel, AISDKLanguageModel } from "./ai-sdk-types";

const supportedVersions: ReadonlySet<unknown> = new Set(["v2", "v3", "v4"]);

/** Throws an `InvalidArgumentError` for a specification agentcore does not speak. */
function checkSpecificationVersion(version: unknown, kind: "model" | "embedding model"): void {
  if (supportedVersions.has(version)) return;
  throw new InvalidArgumentError({
    argument: kind === "model" ? "model" : "embedder",
    value: version,
    message: `This AI SDK ${kind} has specification ${JSON.stringify(version)}; agentcore takes "v2" (ai 5 provider packages, e.g. @ai-sdk/openai 2), "v3" (ai 6, e.g. @ai-sdk/openai 3) and "v4" (ai 7, e.g. @ai-sdk/openai 4). Upgrade or pin the provider package.`,
  });
}

function hasSpecificationVersion(value: unknown): value is { specificationVersion: unknown } {
  return value !== null && typeof value === "object" && "specificationVersion" in value;
}

/**
 * Whether `value` is a language model of an AI SDK provider package, told by its
 * `specificationVersion` (agentcore's own models have none). Throws an `InvalidArgumentError`
 * for a specification agentcore does not speak (`"v1"` of `ai` 4, or a newer one than `"v4"`).
 */
export function isAISDKLanguageModel(value: unknown): value is AISDKLanguageModel {
  if (!hasSpecificationVersion(value)) return false;
  const model = value as { doGenerate?: unknown; doStream?: unknown };
  if (typeof model.doGenerate !== "function" || typeof model.doStream !== "function") return false;
  checkSpecificationVersion(value.specificationVersion, "model");
  return true;
}

/**
 * Whether `value` is an embedding model of an AI SDK provider package (`doEmbed` and a
 * `specificationVersion`; agentcore's own have none). Throws an `InvalidArgumentError` for a
 * specification agentcore does not speak.
 */
export function isAISDKEmbeddingModel(value: unknown): value is AISDKEmbeddingModel {
  if (!hasSpecificationVersion(value) || typeof (value as { doEmbed?: unknown }).doEmbed !== "function") return false;
  checkSpecificationVersion(value.specificationVersion, "embedding model");
  return true;
}

/**
 * Wraps a model of any AI SDK provider package (`@ai-sdk/openai`, `@ai-sdk/google`,
 * `@ai-sdk/mistral`, ...; spec v2, v3 or v4) as an agentcore model: a language model as a
 * `LanguageModel`, an embedding model (`openai.embedding(...)`) as an `EmbeddingModel`. Passing the
 * AI SDK language model itself as `model` (or the embedding model as `embedder`) does the same;
 * call `fromAISDK` to add `headers` or `providerOptions` to every call. An agentcore model is
 * returned as is.
 */
export function fromAISDK(model: AISDKEmbeddingModel, settings?: AISDKEmbeddingModelSettings): EmbeddingModel;
export function fromAISDK(model: AISDKLanguageModel | LanguageModel, settings?: AISDKModelSettings): LanguageModel;
export function fromAISDK(
  model: AISDKLanguageModel | LanguageModel | AISDKEmbeddingModel,
  settings?: AISDKModelSettings | AISDKEmbeddingModelSettings,
): LanguageModel | EmbeddingModel {
  if (isAISDKLanguageModel(model)) return new AISDKLanguageModelAdapter(model, settings);
  if (isAISDKEmbeddingModel(model)) return new AISDKEmbeddingModelAdapter(model, settings);
  if (model instanceof AISDKLanguageModelAdapter && settings)
    return new AISDKLanguageModelAdapter(model.aiSDKModel, settings);
  if (model instanceof AISDKEmbeddingModelAdapter && settings)
    return new AISDKEmbeddingModelAdapter(model.aiSDKModel, settings);
  if (model !== null && typeof model === "object" && typeof (model as LanguageModel).doGenerate === "function")
    return model as LanguageModel;
  const value: unknown = model;
  if (value !== null && typeof value === "object" && typeof (value as EmbeddingModel).doEmbed === "function")
    return value as EmbeddingModel;
  throw new InvalidArgumentError({
    argument: "model",
    value: model,
    message:
      'fromAISDK() needs a model of an AI SDK provider package, e.g. openai("gpt-4o") or openai.embedding("text-embedding-3-small") from @ai-sdk/openai.',
  });
}
