// testMemoryProvider must be able to fail: run it on deliberately broken providers in a separate
// vitest process and check that it fails exactly the tests that should catch them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("testMemoryProvider", () => {
  it("fails broken providers: an ignored limit, memories shared between users", () => {
    const directory = mkdtempSync(join(tmpdir(), "agentcore-provider-suite-"));
    try {
      const report = join(directory, "report.json");
      const run = spawnSync(
        process.execPath,
        [
          join(root, "node_modules", "vitest", "vitest.mjs"),
          "run",
          "--config",
          "test/fixtures/vitest.provider-fixture.config.ts",
          "--reporter=json",
          `--outputFile=${report}`,
        ],
        { cwd: root, encoding: "utf8", env: { ...process.env, CI: "" } },
      );
      expect(run.status).not.toBe(0);
      const results = JSON.parse(readFileSync(report, "utf8")) as {
        testResults: { assertionResults: { fullName: string; status: string }[] }[];
      };
      const failed = results.testResults.flatMap((file) =>
        file.assertionResults.filter((test) => test.status === "failed").map((test) => test.fullName),
      );
      expect(failed.sort()).toEqual([
        "MemoryProvider contract: LeakyProvider never returns another user's memories, whatever session is asked for",
        "MemoryProvider contract: LeakyProvider user scope: a read sees the user's memories from all their sessions",
        "MemoryProvider contract: UnlimitedProvider returns at most `limit` records",
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);
});
