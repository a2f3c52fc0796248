// Runs a test suite on deliberately broken fixtures in a separate vitest process, so a test can
// check that the suite fails exactly the tests that should catch them (a suite must be able to fail).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface FixtureTestResult {
  fullName: string;
  status: string;
  failureMessages: string[];
}

export interface FixtureSuiteRun {
  /** The vitest process's exit status. */
  status: number | null;
  /** Every test the run reported, in its order. */
  tests: FixtureTestResult[];
  /** The full names of the failed tests. */
  failed: string[];
}

/** Runs `vitest run --config <config>` (relative to the repository root, CI unset) and reads its JSON report. */
export function runFixtureSuite(config: string): FixtureSuiteRun {
  const directory = mkdtempSync(join(tmpdir(), "agentcore-fixture-suite-"));
  try {
    const report = join(directory, "report.json");
    const run = spawnSync(
      process.execPath,
      [
        join(root, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--config",
        config,
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      { cwd: root, encoding: "utf8", env: { ...process.env, CI: "" } },
    );
    const results = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: { assertionResults: FixtureTestResult[] }[];
    };
    const tests = results.testResults.flatMap((file) => file.assertionResults);
    const failed = tests.filter((test) => test.status === "failed").map((test) => test.fullName);
    return { status: run.status, tests, failed };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
