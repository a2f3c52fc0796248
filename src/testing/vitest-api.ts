// The vitest functions the conformance suite uses. The ES module build imports vitest here; the
// CommonJS build swaps this file for vitest-api.cjs-stub.ts (vitest cannot be required), so
// `require("agentcore/testing")` still works for MockLanguageModel.
export { afterAll, describe, expect, it } from "vitest";
