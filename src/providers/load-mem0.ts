/**
 * Imports the optional `mem0ai` package (Node build). The edge build swaps this file for
 * `load-mem0.edge.ts`: mem0ai needs Node's fs, os and crypto, so there it is never bundled.
 */
export function loadMem0(): Promise<unknown> {
  return import("mem0ai");
}
