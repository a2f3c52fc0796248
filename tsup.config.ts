import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig, type Options } from "tsup";

// Optional peers and vitest (used only by agentcore/testing's conformance suite) stay external.
const external = [
  "ioredis",
  "pg",
  "better-sqlite3",
  "@upstash/redis",
  "mem0ai",
  "@modelcontextprotocol/sdk",
  "@opentelemetry/api",
  "vitest",
];

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      "testing/index": "src/testing/index.ts",
      "redis/index": "src/stores/redis/index.ts",
      "postgres/index": "src/stores/postgres/index.ts",
      "sqlite/index": "src/stores/sqlite/index.ts",
      "mcp/index": "src/tools/mcp/index.ts",
      // edge-safe: @upstash/redis and Web APIs only (also in the edge build below)
      "upstash/index": "src/stores/upstash/index.ts",
      // what few programs name (edge-safe, also in the edge build below)
      "semantic/index": "src/providers/semantic/index.ts",
      "telemetry/index": "src/agent/telemetry/index.ts",
      "tuning/index": "src/tuning.ts",
      // the inspector's handler and page (Fetch API only: also in the edge build below)
      "inspector/index": "src/inspector/index.ts",
      // the agentcore command (package.json "bin")
      "cli/index": "src/cli/index.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    // dist/edge is the other build's (below): this one cleans everything else.
    clean: ["!edge/**"],
    sourcemap: true,
    target: "node20",
    splitting: true,
    treeshake: true,
    // import.meta.url in the CJS build: the tokenizer is loaded lazily with createRequire.
    shims: true,
    external,
    // stemmer is ESM-only and tiny: bundled so the CommonJS build needs no require() of an ES module.
    noExternal: ["stemmer"],
    esbuildOptions: rememberFormat,
    esbuildPlugins: [
      {
        // vitest cannot be require()d: the CommonJS build of agentcore/testing gets a stub whose
        // functions explain that testMemoryStore needs an ES module test file.
        name: "vitest-cjs-stub",
        setup(build) {
          if (build.initialOptions.define?.__AGENTCORE_FORMAT__ !== '"cjs"') return;
          build.onResolve({ filter: /\/vitest-api$/ }, (args) => ({
            path: resolve(args.resolveDir, "vitest-api.cjs-stub.ts"),
          }));
        },
      },
    ],
  },
  {
    // The edge build (docs/architecture.md, "The edge build"): the same sources, where a file has
    // a sibling `<name>.edge.ts` that sibling instead (FileMemoryStore's stand-in, the tokenizer
    // without require, no mem0ai, no vitest). package.json sends the edge-light, workerd, worker and
    // browser conditions here; its types are the Node build's.
    entry: {
      index: "src/index.ts",
      "testing/index": "src/testing/index.ts",
      "upstash/index": "src/stores/upstash/index.ts",
      "semantic/index": "src/providers/semantic/index.ts",
      "telemetry/index": "src/agent/telemetry/index.ts",
      "tuning/index": "src/tuning.ts",
      "inspector/index": "src/inspector/index.ts",
    },
    outDir: "dist/edge",
    format: ["esm"],
    platform: "browser",
    dts: false,
    clean: true,
    sourcemap: true,
    target: "es2022",
    splitting: true,
    treeshake: true,
    external,
    noExternal: ["stemmer"],
    esbuildOptions: rememberFormat,
    esbuildPlugins: [
      {
        name: "edge-siblings",
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            const sibling = resolve(args.resolveDir, `${args.path}.edge.ts`);
            return existsSync(sibling) ? { path: sibling } : undefined;
          });
        },
      },
    ],
  },
]);

// tsup builds every format as ESM first when tree-shaking; remember the real one for the plugins.
function rememberFormat(
  options: Parameters<NonNullable<Options["esbuildOptions"]>>[0],
  context: { format: string },
): void {
  options.define = { ...options.define, __AGENTCORE_FORMAT__: JSON.stringify(context.format) };
}
