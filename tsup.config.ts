import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: true,
  treeshake: true,
  // import.meta.url in the CJS build: the tokenizer is loaded lazily with createRequire.
  shims: true,
  // Optional peers and vitest (used only by agentcore/testing's conformance suite) stay external.
  external: ["ioredis", "pg", "better-sqlite3", "mem0ai", "vitest"],
});
