import { InvalidArgumentError } from "../errors/invalid-argument-error";

/** A model id as provider factories take it: `"gpt-4o"`, or AgentLIB's `{ model: "gpt-4o" }`. */
export type ModelIdArgument = string | { model: string };

/** The model id of `openai("gpt-4o")` or `openai({ model: "gpt-4o" })`; anything else is an `InvalidArgumentError`. */
export function modelIdArgument(input: ModelIdArgument, factory: string): string {
  const modelId = typeof input === "object" && input !== null ? input.model : input;
  if (typeof modelId !== "string" || modelId.trim() === "") {
    throw new InvalidArgumentError({
      argument: "model",
      value: input,
      message: `${factory}() needs a model id: ${factory}("model-id") or ${factory}({ model: "model-id" }).`,
    });
  }
  return modelId;
}
