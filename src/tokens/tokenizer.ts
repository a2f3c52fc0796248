import { TokenizerNotLoadedError } from "../errors/tokenizer-not-loaded-error";
import { utf8ByteLength } from "../messages/utf8-byte-length";
import type { Encoding, EncodingName } from "./encoding";
import type { ImageTokenRule } from "./image-tokens";
import { importEncoding } from "./import-encoding";
import { loadEncodingSync } from "./load-encoding-sync";

export type { EncodingName } from "./encoding";

// Special tokens such as "<|endoftext|>" in user text are ordinary text to a provider: count
// them as text instead of letting gpt-tokenizer throw.
const asPlainText = { disallowedSpecial: new Set<string>() };

/** Where an app's table comes from (`provideTokenizer`): the table, or a function that loads it. */
export type EncodingSource = Encoding | (() => Encoding | Promise<Encoding>);

const loaded = new Map<EncodingName, Encoding>();
const loading = new Map<EncodingName, Promise<void>>();
const provided = new Map<EncodingName, EncodingSource>();
/** Encodings counted by their UTF-8 byte bound: the edge build, no table provided. */
const bounded = new Set<EncodingName>();

/**
 * Counts each UTF-8 byte as a token: o200k and cl100k are byte-level BPE, so a token is at least
 * one byte and this never counts fewer tokens than the table would (about 4× more for English).
 */
const byteBound: Encoding = { countTokens: (text) => utf8ByteLength(text) };

/**
 * The encoding, loaded on first use and kept: a cold load takes ~300 ms and ~100 MB, so it is
 * never done at import time, and only by what counts tokens. Synchronous so `estimateTokens` can
 * be: in Node it loads with `require` when `loadEncodingAsync` has not loaded it yet; where that
 * is impossible (the edge build) it throws `TokenizerNotLoadedError` until `loadEncodingAsync`
 * has run, and counts by the byte bound after it when the app provided no table.
 */
export function loadEncoding(name: EncodingName): Encoding {
  let encoding = loaded.get(name);
  if (!encoding) {
    const source = provided.get(name);
    encoding = source && typeof source !== "function" ? source : loadEncodingSync(name);
    if (!encoding) {
      if (bounded.has(name)) return byteBound;
      throw new TokenizerNotLoadedError({ encoding: name });
    }
    loaded.set(name, encoding);
  }
  return encoding;
}

/**
 * Loads an encoding, once: concurrent calls share one load. The app's table when it provided one,
 * else a dynamic import (the Node build); the edge build imports none and counts by the byte bound.
 */
export function loadEncodingAsync(name: EncodingName): Promise<void> {
  if (loaded.has(name)) return Promise.resolve();
  let pending = loading.get(name);
  if (!pending) {
    const source = provided.get(name);
    const load =
      source === undefined
        ? importEncoding(name)
        : Promise.resolve().then(() => (typeof source === "function" ? source() : source));
    pending = load.then(
      (encoding) => {
        if (encoding && !loaded.has(name)) loaded.set(name, encoding);
        else if (!encoding) bounded.add(name);
        loading.delete(name);
      },
      (error: unknown) => {
        loading.delete(name);
        throw error;
      },
    );
    loading.set(name, pending);
  }
  return pending;
}

/** Sets where an encoding's table comes from (`provideTokenizer`); a table loaded before stays. */
export function provideEncoding(name: EncodingName, source: EncodingSource): void {
  provided.set(name, source);
  bounded.delete(name);
}

/** Whether an encoding's table has been loaded yet (the byte bound is not a table: calibration waits for one). */
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
  /** Whose rule counts images (tokens/image-tokens.ts): OpenAI's, Anthropic's, or the larger (other models). */
  imageRule: ImageTokenRule;
}

/**
 * Safety factor for models whose tokenizer is not public (Anthropic, Gemini, Llama, mocks…):
 * their counts run up to about 15 % above o200k on English text and code, so o200k counts are
 * scaled up by this much. Calibration (the provider's reported input tokens) refines it.
 */
export const NON_OPENAI_TOKEN_FACTOR = 1.15;

const exact: TokenizerProfile = { encoding: "o200k_base", factor: 1, key: "o200k_base", imageRule: "openai" };
const legacy: TokenizerProfile = { encoding: "cl100k_base", factor: 1, key: "cl100k_base", imageRule: "openai" };
const approximate: TokenizerProfile = {
  encoding: "o200k_base",
  factor: NON_OPENAI_TOKEN_FACTOR,
  key: "o200k_base*1.15",
  imageRule: "max",
};
const anthropic: TokenizerProfile = { ...approximate, imageRule: "anthropic" };

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
  if (provider === "anthropic" || id.startsWith("claude")) return anthropic;
  return approximate;
}
