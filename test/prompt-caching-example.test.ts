// examples/prompt-caching.ts runs offline as docs/prompt-caching.md says: the first turn writes the prefix to
// the cache, every later turn reads the previous turn's whole request back from it.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/prompt-caching.ts", () => {
  it("runs offline: turn 1 writes the cache, later turns read the previous request back", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/prompt-caching.ts"], {
      cwd: root,
      timeout: 90_000,
    });
    const lines = stdout.trim().split("\n");
    const turns = lines.slice(0, -1).map((line) => {
      const [, input, read, written] = /^turn \d+: (\d+) input tokens, (\d+) read from the cache, (\d+) written$/.exec(
        line,
      )!;
      return { input: Number(input), read: Number(read), written: Number(written) };
    });
    expect(turns).toHaveLength(4);
    expect(turns[0]).toEqual({ input: turns[0]!.input, read: 0, written: turns[0]!.input });
    for (let index = 1; index < turns.length; index++) {
      // What the previous request sent is read back; only the new answer and question are written.
      expect(turns[index]!.read).toBe(turns[index - 1]!.input);
      expect(turns[index]!.read + turns[index]!.written).toBe(turns[index]!.input);
    }
    expect(lines.at(-1)).toMatch(/^read from the cache: \d+% of input tokens$/);

    // With an @ai-sdk/anthropic model as `model`: the same breakpoints, so the same counts, turn by turn.
    const aiSDK = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/prompt-caching.ts", "--ai-sdk"],
      { cwd: root, timeout: 90_000 },
    );
    expect(aiSDK.stdout).toBe(stdout);
  }, 120_000);
});
