import { TokenizerNotLoadedError } from "../errors/tokenizer-not-loaded-error";
import { loadEncodingAsync, type EncodingName } from "./tokenizer";

/**
 * Runs `body`, which may count tokens; if it had to count before the encoding was loaded in a
 * runtime that loads it only asynchronously (the edge build), loads it and runs `body` again.
 * For pure work only (strategies applying a window): in Node it runs once, loading on demand.
 */
export async function withTokenizer<T>(body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (!TokenizerNotLoadedError.isInstance(error)) throw error;
    await loadEncodingAsync(error.encoding as EncodingName);
    return await body();
  }
}
