import type { LanguageModel } from "../models/language-model";
import { CliError } from "./cli-error";
import { scriptedModel } from "./scripted-model";

export const NO_PROVIDER_HELP =
  "no model provider is configured. Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server, e.g. " +
  "OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama), or ANTHROPIC_API_KEY, or pass --model provider/model; " +
  "--model mock runs the offline scripted model";

/**
 * The model of `agentcore chat`: `--model` when given (`mock` is the offline scripted model),
 * else OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set, else Anthropic with ANTHROPIC_API_KEY.
 */
export function chooseModel(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { model: string | LanguageModel; note?: string } {
  if (option === "mock")
    return {
      model: scriptedModel(),
      note: "Using the offline scripted model (--model mock): it echoes, and remembers what you ask it to.",
    };
  if (option) return { model: option };
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return { model: "openai/gpt-4o-mini" };
  if (env.ANTHROPIC_API_KEY) return { model: "anthropic/claude-3-5-haiku" };
  throw new CliError(NO_PROVIDER_HELP);
}
