import { resolve } from "node:path";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
    "redis/index": "src/stores/redis/index.ts",
    "postgres/index": "src/stores/postgres/index.ts",
    "sqlite/index": "src/stores/sqlite/index.ts",
    "mcp/index": "src/tools/mcp/index.ts",
    // edge-safe: @upstash/redis and Web APIs only
    "upstash/index": "src/stores/upstash/index.ts",
    // the agentcore command (package.json "bin")
    "cli/index": "src/cli/index.ts",
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
  external: ["ioredis", "pg", "better-sqlite3", "@upstash/redis", "proper-lockfile", "mem0ai", "@modelcontextprotocol/sdk", "@opentelemetry/api", "vitest"],
  // stemmer is ESM-only and tiny: bundled so the CommonJS build needs no require() of an ES module.
  noExternal: ["stemmer"],
  esbuildOptions(options, { format }) {
    // tsup builds every format as ESM first when tree-shaking; remember the real one for the plugin below.
    options.define = { ...options.define, __AGENTCORE_FORMAT__: JSON.stringify(format) };
  },
  esbuildPlugins: [
    {
      // vitest cannot be require()d: the CommonJS build of agentcore/testing gets a stub whose
      // functions explain that testMemoryStore needs an ES module test file.
      name: "vitest-cjs-stub",
      setup(build) {
        if (build.initialOptions.define?.__AGENTCORE_FORMAT__ !== '"cjs"') return;
        build.onResolve({ filter: /\/vitest-api$/ }, (args) => ({ path: resolve(args.resolveDir, "vitest-api.cjs-stub.ts") }));
      },
    },
  ],
});
