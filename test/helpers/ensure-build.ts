// vitest globalSetup: the package tests (test/package-*.test.ts, the CLI, the built-package
// provider test) import dist/. Build it once before any test runs when it is missing or older
// than its sources, so a bare `vitest run` never tests a stale build. `npm test` builds first,
// so there this is a freshness check that finds nothing to do.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildStale } from "./build-freshness";

export default function ensureBuild(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  if (!isBuildStale(root)) return;
  execFileSync(process.execPath, [join(root, "node_modules", "tsup", "dist", "cli-default.js"), "--silent"], { cwd: root, stdio: "inherit" });
}
