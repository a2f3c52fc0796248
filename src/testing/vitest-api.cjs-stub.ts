// Replaces vitest-api.ts in the CommonJS build (see tsup.config.ts): vitest refuses require().
function unavailable(): never {
  throw new Error(
    'testMemoryStore and testMemoryProvider run under vitest, which cannot be loaded with require(). Import "agentcore/testing" from an ES module test file (vitest test files are ES modules).',
  );
}
export const afterAll = unavailable;
export const describe = unavailable;
export const expect = unavailable;
export const it = unavailable;
