import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { LanguageModel } from "../language-model";
import { AISDKLanguageModelAdapter, type AISDKModelSettings } from "./ai-sdk-language-model";
import type { AISDKLanguageModel } from "./ai-sdk-types";

/**
 * Whether `value` is a language model of an AI SDK provider package, told by its
 * `specificationVersion` (agentcore's own models have none). Throws an `InvalidArgumentError`
 * for a specification agentcore does not speak (`"v1"` of `ai` 4, or a newer one).
 */
export function isAISDKLanguageModel(value: unknown): value is AISDKLanguageModel {
  if (value === null || typeof value !== "object" || !("specificationVersion" in value)) return false;
  const version = (value as { specificationVersion: unknown }).specificationVersion;
  const model = value as { doGenerate?: unknown; doStream?: unknown };
  if (typeof model.doGenerate !== "function" || typeof model.doStream !== "function") return false;
  if (version === "v2" || version === "v3") return true;
  throw new InvalidArgumentError({
    argument: "model",
    value: version,
    message: `This AI SDK model has specification ${JSON.stringify(version)}; agentcore takes "v2" (ai 5 provider packages, e.g. @ai-sdk/openai 2) and "v3" (ai 6, e.g. @ai-sdk/openai 3). Upgrade or pin the provider package.`,
  });
}

/**
 * Wraps a language model of any AI SDK provider package (`@ai-sdk/openai`, `@ai-sdk/google`,
 * `@ai-sdk/mistral`, ...; spec v2 or v3) as an agentcore `LanguageModel`. Passing the AI SDK model
 * itself as `model` does the same; call `fromAISDK` to add `headers` or `providerOptions` to
 * every call. An agentcore model is returned as is.
 */
export function fromAISDK(model: AISDKLanguageModel | LanguageModel, settings?: AISDKModelSettings): LanguageModel {
  if (isAISDKLanguageModel(model)) return new AISDKLanguageModelAdapter(model, settings);
  if (model instanceof AISDKLanguageModelAdapter && settings)
    return new AISDKLanguageModelAdapter(model.aiSDKModel, settings);
  if (model !== null && typeof model === "object" && typeof (model as LanguageModel).doGenerate === "function")
    return model as LanguageModel;
  throw new InvalidArgumentError({
    argument: "model",
    value: model,
    message:
      'fromAISDK() needs a language model of an AI SDK provider package, e.g. openai("gpt-4o") from @ai-sdk/openai.',
  });
}
