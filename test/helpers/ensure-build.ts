// The package tests (the CLI, the package consumers, the store subpaths, the semantic-memory
// package, the Next.js end-to-end app) import dist/. Each calls ensureFreshBuild() in its
// beforeAll: dist/ is rebuilt when it is missing or older than its sources, so a bare
// `vitest run` never tests a stale build. A lock keeps parallel test files from building at once;
// under `npm test`, which builds first, it is a freshness check that finds nothing to do.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import lockfile from "proper-lockfile";
import { isBuildStale } from "./build-freshness";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function ensureFreshBuild(): Promise<void> {
  if (!isBuildStale(root)) return;
  const release = await lockfile.lock(join(root, "package.json"), {
    lockfilePath: join(root, "node_modules", ".agentcore-build.lock"),
    stale: 180_000,
    retries: { retries: 400, minTimeout: 500, maxTimeout: 500 },
  });
  try {
    if (isBuildStale(root)) {
      execFileSync(process.execPath, [join(root, "node_modules", "tsup", "dist", "cli-default.js"), "--silent"], {
        cwd: root,
        stdio: "inherit",
      });
    }
  } finally {
    await release();
  }
}
