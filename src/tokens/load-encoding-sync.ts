import { createRequire } from "node:module";
import type { Encoding, EncodingName } from "./encoding";

let requireFromHere: NodeJS.Require | undefined;

/**
 * Loads an encoding synchronously, so `estimateTokens` works without `loadTokenizer()` first.
 * Node build only: `createRequire` works in the ESM build, and in the CJS build through tsup's
 * `import.meta.url` shim. The edge build swaps this file for `load-encoding-sync.edge.ts`, which
 * cannot (docs/architecture.md, "The edge build").
 */
export function loadEncodingSync(name: EncodingName): Encoding | undefined {
  requireFromHere ??= createRequire(import.meta.url);
  return requireFromHere(`gpt-tokenizer/encoding/${name}`) as Encoding;
}
