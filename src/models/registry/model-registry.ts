import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { NoSuchProviderError } from "../../errors/no-such-provider-error";
import { defaultProviders } from "./default-providers";
import { fromAISDK, isAISDKLanguageModel } from "../ai-sdk/from-ai-sdk";
import type { AISDKLanguageModel } from "../ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../language-model";

/**
 * Makes a model of one provider from its model id (the part after the slash of
 * `"provider/model"`): an agentcore `LanguageModel`, or a model of an AI SDK provider package, so
 * `registerProvider("google", google)` (from `@ai-sdk/google`) makes `"google/..."` strings work.
 */
export type ProviderFactory = (modelId: string) => LanguageModel | AISDKLanguageModel;

// Built in: "openai" and "anthropic" (see default-providers.ts); SDKs load on first call.
const providers = new Map<string, ProviderFactory>(Object.entries(defaultProviders));

/**
 * Registers a provider prefix so `"<prefix>/<model>"` strings resolve to its models.
 * Registering an existing prefix replaces it.
 */
export function registerProvider(prefix: string, factory: ProviderFactory): void {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(prefix)) {
    throw new InvalidArgumentError({
      argument: "prefix",
      value: prefix,
      message: `Provider prefix "${prefix}" must be letters, digits, ".", "_" or "-" (no slash).`,
    });
  }
  providers.set(prefix, factory);
}

/** Removes a provider prefix. Returns whether it was registered. */
export function unregisterProvider(prefix: string): boolean {
  return providers.delete(prefix);
}

/** The registered provider prefixes, sorted. */
export function listProviders(): string[] {
  return [...providers.keys()].sort();
}

/**
 * Resolves a `"provider/model"` string, wraps a model of an AI SDK provider package (spec v2, v3
 * or v4, see `fromAISDK`), or passes a `LanguageModel` through. An unknown prefix is a
 * `NoSuchProviderError` that lists the known ones.
 */
export function resolveLanguageModel(model: string | LanguageModel | AISDKLanguageModel): LanguageModel {
  return resolveModelOption(model, "model");
}

/**
 * `resolveLanguageModel` for an option of another name (`SummaryMemory`'s `model`,
 * `SummarizingMemory`'s `summaryModel`): its errors name `argument`. Internal.
 */
export function resolveModelOption(
  model: string | LanguageModel | AISDKLanguageModel,
  argument: string,
): LanguageModel {
  if (typeof model !== "string") {
    if (isAISDKLanguageModel(model)) return fromAISDK(model);
    if (model && typeof model.doGenerate === "function" && typeof model.doStream === "function")
      return model as LanguageModel;
    throw new InvalidArgumentError({
      argument,
      value: model,
      message: `${argument} must be a "provider/model" string (e.g. "openai/gpt-4o"), a LanguageModel instance or a model of an AI SDK provider package (e.g. openai("gpt-4o") from @ai-sdk/openai).`,
    });
  }
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) {
    throw new InvalidArgumentError({
      argument,
      value: model,
      message: `${argument} "${model}" must have the form "provider/model", e.g. "openai/gpt-4o".`,
    });
  }
  const providerId = model.slice(0, slash);
  const modelId = model.slice(slash + 1);
  const factory = providers.get(providerId);
  if (!factory) {
    throw new NoSuchProviderError({ providerId, modelId, availableProviders: listProviders() });
  }
  const made = factory(modelId);
  return isAISDKLanguageModel(made) ? fromAISDK(made) : made;
}
