import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { NoSuchProviderError } from "../errors/no-such-provider-error";
import { defaultProviders } from "./default-providers";
import type { LanguageModel, LanguageModelFactory } from "./language-model";

// Built in: "openai" and "anthropic" (see default-providers.ts); SDKs load on first call.
const providers = new Map<string, LanguageModelFactory>(Object.entries(defaultProviders));

/**
 * Registers a provider prefix so `"<prefix>/<model>"` strings resolve to its models.
 * Registering an existing prefix replaces it.
 */
export function registerProvider(prefix: string, factory: LanguageModelFactory): void {
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
 * Resolves a `"provider/model"` string (or passes a `LanguageModel` through). An unknown prefix
 * is a `NoSuchProviderError` that lists the known ones.
 */
export function resolveLanguageModel(model: string | LanguageModel): LanguageModel {
  if (typeof model !== "string") {
    if (model && typeof model.doGenerate === "function" && typeof model.doStream === "function") return model;
    throw new InvalidArgumentError({
      argument: "model",
      value: model,
      message: 'model must be a "provider/model" string (e.g. "openai/gpt-4o") or a LanguageModel instance.',
    });
  }
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) {
    throw new InvalidArgumentError({
      argument: "model",
      value: model,
      message: `model "${model}" must have the form "provider/model", e.g. "openai/gpt-4o".`,
    });
  }
  const providerId = model.slice(0, slash);
  const modelId = model.slice(slash + 1);
  const factory = providers.get(providerId);
  if (!factory) {
    throw new NoSuchProviderError({ providerId, modelId, availableProviders: listProviders() });
  }
  return factory(modelId);
}
