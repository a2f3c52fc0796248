import { createRequire } from "node:module";

/** The two encodings agentcore counts with. */
export type EncodingName = "o200k_base" | "cl100k_base";

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  encode(text: string, options?: { disallowedSpecial?: Set<string> }): number[];
}

// Special tokens such as "<|endoftext|>" in user text are ordinary text to a provider: count
// them as text instead of letting gpt-tokenizer throw.
const asPlainText = { disallowedSpecial: new Set<string>() };

const loaded = new Map<EncodingName, Encoding>();
let requireFromHere: NodeJS.Require | undefined;

/**
 * The encoding, loaded on first use and kept (a cold load takes ~300 ms and ~100 MB, so it is
 * never done at import time). Synchronous so `estimateTokens` can be: `createRequire` works in
 * the ESM build, and in the CJS build through tsup's `import.meta.url` shim.
 */
export function loadEncoding(name: EncodingName): Encoding {
  let encoding = loaded.get(name);
  if (!encoding) {
    requireFromHere ??= createRequire(import.meta.url);
    encoding = requireFromHere(`gpt-tokenizer/encoding/${name}`) as Encoding;
    loaded.set(name, encoding);
  }
  return encoding;
}

/** Whether an encoding has been loaded yet (bench: cold start). */
export function isEncodingLoaded(name: EncodingName): boolean {
  return loaded.has(name);
}

/** Tokens of `text` in `encoding`, special tokens counted as plain text. */
export function countTextTokens(text: string, encoding: EncodingName): number {
  if (text.length === 0) return 0;
  return loadEncoding(encoding).countTokens(text, asPlainText);
}

/** How a model's tokens are counted: the encoding and a safety factor for non-OpenAI models. */
export interface TokenizerProfile {
  encoding: EncodingName;
  /** Multiplier applied to counts (1 for OpenAI models, whose tokenizer is exact). */
  factor: number;
  /** Cache key of the profile. */
  key: string;
}

/**
 * Safety factor for models whose tokenizer is not public (Anthropic, Gemini, Llama, mocks…):
 * their counts run up to about 15 % above o200k on English text and code, so o200k counts are
 * scaled up by this much. Calibration (the provider's reported input tokens) refines it.
 */
export const NON_OPENAI_TOKEN_FACTOR = 1.15;

const exact: TokenizerProfile = { encoding: "o200k_base", factor: 1, key: "o200k_base" };
const legacy: TokenizerProfile = { encoding: "cl100k_base", factor: 1, key: "cl100k_base" };
const approximate: TokenizerProfile = { encoding: "o200k_base", factor: NON_OPENAI_TOKEN_FACTOR, key: "o200k_base*1.15" };

/**
 * Picks the tokenizer for a model id (`"gpt-4o"`, `"openai/gpt-4o"`, or a `LanguageModel`'s
 * provider and id). o200k for gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and the o-series; cl100k for
 * gpt-4 and gpt-3.5; any other model o200k scaled by `NON_OPENAI_TOKEN_FACTOR`. No model: o200k, exact.
 */
export function tokenizerFor(model?: string | { provider: string; modelId: string }): TokenizerProfile {
  if (model === undefined) return exact;
  let provider = "";
  let id: string;
  if (typeof model === "string") {
    const slash = model.indexOf("/");
    if (slash >= 0) {
      provider = model.slice(0, slash).toLowerCase();
      id = model.slice(slash + 1).toLowerCase();
    } else {
      id = model.toLowerCase();
    }
  } else {
    provider = model.provider.toLowerCase();
    id = model.modelId.toLowerCase();
  }
  if (/^(gpt-3\.5|gpt-35|gpt-4(-|$)|text-embedding-ada|text-embedding-3)/.test(id)) return legacy;
  if (/^(gpt-4o|gpt-4\.|gpt-5|gpt-oss|chatgpt-|o1|o3|o4|codex-)/.test(id)) return exact;
  if (provider === "openai" && id.startsWith("gpt-")) return exact;
  return approximate;
}
