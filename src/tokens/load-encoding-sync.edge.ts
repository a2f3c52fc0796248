import type { Encoding, EncodingName } from "./encoding";

/**
 * The edge build's stand-in for `load-encoding-sync.ts`: edge runtimes have no `require`, so an
 * encoding is only loaded by `loadTokenizer()` (a dynamic import). Counting before that throws
 * `TokenizerNotLoadedError`; the agent's run loop loads the encoding and counts again.
 */
export function loadEncodingSync(_name: EncodingName): Encoding | undefined {
  return undefined;
}
