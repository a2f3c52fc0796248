// Replaces vitest-api.ts in the edge build (see tsup.config.ts): vitest runs in Node, and the
// top-level await that looks for it has no place in a worker or edge bundle.
function unavailable(): never {
  throw new Error(
    "testMemoryStore and testMemoryProvider run under vitest, in Node. MockLanguageModel and MockEmbeddingModel work on the edge.",
  );
}
export const afterAll = unavailable;
export const describe = unavailable;
export const expect = unavailable;
export const it = unavailable;
