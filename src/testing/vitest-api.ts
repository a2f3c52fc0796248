// The vitest functions the conformance suites use, loaded only if vitest is installed, so that
// `import { MockLanguageModel } from "agentcore/testing"` works in any test runner. The CommonJS
// build swaps this file for vitest-api.cjs-stub.ts (vitest cannot be required).
type Vitest = typeof import("vitest");

// The specifier is not a literal, so an app bundler (Next.js, esbuild) that bundles
// `agentcore/testing` for its MockLanguageModel leaves vitest (and vite under it) out.
const vitestModule = "vitest";
let vitest: Vitest | undefined;
try {
  vitest = (await import(/* webpackIgnore: true */ /* @vite-ignore */ vitestModule)) as Vitest;
} catch {
  vitest = undefined;
}

function unavailable(): never {
  throw new Error(
    "testMemoryStore and testMemoryProvider run under vitest: install it (npm install -D vitest). MockLanguageModel works without it.",
  );
}

export const afterAll = (vitest?.afterAll ?? unavailable) as Vitest["afterAll"];
export const describe = (vitest?.describe ?? unavailable) as Vitest["describe"];
export const expect = (vitest?.expect ?? unavailable) as unknown as Vitest["expect"];
export const it = (vitest?.it ?? unavailable) as Vitest["it"];
