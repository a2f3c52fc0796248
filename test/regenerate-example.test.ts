// examples/regenerate.ts runs offline as docs/regenerate.md says: a regenerate replaces the last answer, an
// edit replaces a question and what follows it, and an empty session is a typed error.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/regenerate.ts", () => {
  it("runs offline: the store holds the new answer in place of the old one", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/regenerate.ts"], {
      cwd: root,
      timeout: 90_000,
    });
    expect(stdout.trim().split("\n")).toEqual([
      "answer 3",
      "user: What is a vector database? | assistant: answer 1 | user: And when do I need one? | assistant: answer 3",
      "What is a graph database? | answer 4",
      "NothingToRegenerateError: empty",
    ]);
  }, 120_000);
});
