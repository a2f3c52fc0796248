/** The two encodings agentcore counts with. */
export type EncodingName = "o200k_base" | "cl100k_base";

/** What agentcore uses of a gpt-tokenizer encoding module (`gpt-tokenizer/encoding/o200k_base`). */
export interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}
