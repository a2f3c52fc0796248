import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples and tests import "agentcore" as users do; in tests that means the sources.
    // (test/package-consumer.test.ts checks the built package separately.)
    alias: [
      { find: /^agentcore$/, replacement: source("./src/index.ts") },
      { find: /^agentcore\/testing$/, replacement: source("./src/testing/index.ts") },
      { find: /^agentcore\/mcp$/, replacement: source("./src/tools/mcp/index.ts") },
      { find: /^agentcore\/semantic$/, replacement: source("./src/providers/semantic/index.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
