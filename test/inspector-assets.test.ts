// The inspector's page files are embedded in the package (src/inspector/page-assets.generated.ts):
// this fails when the page or preact/htm changed without running the embedding script again.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the inspector's embedded page files", () => {
  it("match src/inspector/page/ and the installed preact and htm", () => {
    expect(() =>
      execFileSync(process.execPath, ["scripts/embed-inspector-assets.mjs", "--check"], { cwd: root, stdio: "pipe" }),
    ).not.toThrow();
  });
});
