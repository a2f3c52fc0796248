import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModel } from "../models/language-model";

/**
 * The model of an agent built by `createAgent({ name })` without a `model` (as the AgentLIB
 * document's examples build them): the agent can be set up, and a run fails at once with an
 * error that says what is missing.
 */
export const NO_MODEL: LanguageModel = Object.freeze({
  provider: "none",
  modelId: "none",
  doGenerate: () => Promise.reject(noModelError()),
  doStream: () => {
    throw noModelError();
  },
});

export function noModelError(): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: "model",
    message:
      'This agent has no model: pass one to createAgent({ name, model }), a "provider/model" string such as "openai/gpt-4o" or a LanguageModel instance.',
  });
}
