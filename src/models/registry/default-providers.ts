import { anthropic } from "../anthropic/anthropic-provider";
import type { LanguageModelFactory } from "../language-model";
import { openai } from "../openai/openai-provider";

/**
 * The providers `"provider/model"` strings resolve to out of the box. The registry starts from
 * this table (no import side effect to lose to tree-shaking); neither SDK is loaded until a model
 * is first called.
 */
export const defaultProviders: Readonly<Record<string, LanguageModelFactory>> = {
  openai: (modelId) => openai(modelId),
  anthropic: (modelId) => anthropic(modelId),
};
