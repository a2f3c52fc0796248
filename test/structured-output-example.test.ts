// examples/structured-output.ts runs offline as docs/structured-output.md says: the object after a tool call,
// a retried reply left out of the store, partial objects streamed.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/structured-output.ts", () => {
  it("runs offline: a typed object after a tool, the failed reply retried and not stored, partials streamed", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/structured-output.ts"],
      { cwd: root, timeout: 90_000 },
    );
    const [outfit, issue, roles, last, rome] = stdout.trim().split("\n");
    expect(outfit).toBe("wool sweater + rain jacket true");
    expect(issue).toMatch(/^Your reply could not be used: .*umbrella/);
    expect(roles).toBe("user,assistant,tool,assistant");
    expect(JSON.parse(last!)).toEqual({ city: "Oslo", layers: ["wool sweater", "rain jacket"], umbrella: true });
    expect(rome).toBe("Rome true");
  }, 120_000);
});
