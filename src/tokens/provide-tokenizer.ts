import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { Encoding, EncodingName } from "./encoding";
import { provideEncoding } from "./tokenizer";

/** A gpt-tokenizer encoding module (`gpt-tokenizer/encoding/o200k_base`), or a function that imports it. */
export type TokenizerTable = Encoding | (() => Encoding | Promise<Encoding>);

/** The tables an app hands to agentcore, by encoding name. */
export interface TokenizerTables {
  /** o200k_base: gpt-4o, gpt-4.1, gpt-5, the o-series, and (times 1.15) every non-OpenAI model. */
  o200k_base?: TokenizerTable;
  /** cl100k_base: gpt-4 and gpt-3.5. */
  cl100k_base?: TokenizerTable;
}

const names: readonly EncodingName[] = ["o200k_base", "cl100k_base"];

/**
 * Hands agentcore the tokenizer tables to count with, for runtimes where it cannot import them
 * itself: the edge build (Vercel Edge, Cloudflare Workers, browsers) imports none, so that a
 * Worker's bundle does not carry 3.6 MB of tables; without one it counts each UTF-8 byte as a
 * token (never fewer than the table would, about 4× more for English). A function is called only
 * when a model that needs its encoding first counts, so `() => import("gpt-tokenizer/encoding/o200k_base")`
 * lets a bundler that splits keep the table in a lazily loaded chunk. Call it once, at module
 * level. In Node it is not needed: agentcore loads the table itself, with the same counts.
 */
export function provideTokenizer(tables: TokenizerTables): void {
  if (typeof tables !== "object" || tables === null)
    throw new InvalidArgumentError({
      argument: "tables",
      value: tables,
      message:
        'provideTokenizer takes { o200k_base?, cl100k_base? }: each a gpt-tokenizer encoding module or a function that imports one, e.g. { o200k_base: () => import("gpt-tokenizer/encoding/o200k_base") }.',
    });
  for (const [name, table] of Object.entries(tables)) {
    if (!names.includes(name as EncodingName))
      throw new InvalidArgumentError({
        argument: `tables.${name}`,
        value: table,
        message: `provideTokenizer knows the encodings o200k_base and cl100k_base, not "${name}".`,
      });
    if (table === undefined) continue;
    const isTable = typeof table === "object" && table !== null && typeof table.countTokens === "function";
    if (typeof table !== "function" && !isTable)
      throw new InvalidArgumentError({
        argument: `tables.${name}`,
        value: table,
        message: `provideTokenizer's ${name} must be a gpt-tokenizer encoding module (with countTokens) or a function that imports one, e.g. () => import("gpt-tokenizer/encoding/${name}").`,
      });
    provideEncoding(name as EncodingName, table);
  }
}
