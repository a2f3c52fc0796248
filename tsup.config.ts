import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
    "redis/index": "src/stores/redis/index.ts",
    "postgres/index": "src/stores/postgres/index.ts",
    "sqlite/index": "src/stores/sqlite/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: true,
  treeshake: true,
  // Optional peers and vitest (used only by agentcore/testing's conformance suite) stay external.
  external: ["ioredis", "pg", "better-sqlite3", "proper-lockfile", "mem0ai", "vitest"],
});
