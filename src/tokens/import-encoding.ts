import type { Encoding, EncodingName } from "./encoding";

/**
 * Imports an encoding's table (Node build). One literal specifier per encoding: a bundler that
 * splits makes one chunk per encoding, loaded only when used (a template string would make it pack
 * every encoding gpt-tokenizer has). The edge build swaps this file for `import-encoding.edge.ts`.
 */
export function importEncoding(name: EncodingName): Promise<Encoding | undefined> {
  return name === "cl100k_base"
    ? import("gpt-tokenizer/encoding/cl100k_base")
    : import("gpt-tokenizer/encoding/o200k_base");
}
