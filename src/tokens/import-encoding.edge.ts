import type { Encoding, EncodingName } from "./encoding";

/**
 * The edge build's stand-in for `import-encoding.ts`: it imports no table. A Worker's bundler
 * (wrangler, esbuild without splitting) would inline every table it can see, 3.6 MB minified for
 * the two, into the one script; so the edge counts with the table the app hands to
 * `provideTokenizer()`, and without one with the UTF-8 byte bound (`tokenizer.ts`).
 */
export function importEncoding(_name: EncodingName): Promise<Encoding | undefined> {
  return Promise.resolve(undefined);
}
