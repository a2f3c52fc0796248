// examples/tool-approval.ts runs offline as docs/approvals.md says: the call waits for the user, another
// Agent on the store runs it once, a replay is refused and a denial's reason reaches the model.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/tool-approval.ts", () => {
  it("runs offline: asks, continues on another Agent once, refuses the replay, passes the denial's reason", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/tool-approval.ts"], {
      cwd: root,
      timeout: 90_000,
    });
    expect(stdout.trim().split("\n")).toEqual([
      "tool-approval boss@corp.com",
      'The tool said: {"sent":true} boss@corp.com',
      "true",
      "The tool said: Error: Not the whole company boss@corp.com",
    ]);
  }, 120_000);
});
