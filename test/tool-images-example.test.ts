// examples/tool-images.ts runs offline as docs/messages.md says: the tool's image reaches the
// model as an image part and is stored as bytes.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/tool-images.ts", () => {
  it("runs offline: the tool's image is a part for the model and bytes in the store", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/tool-images.ts"], {
      cwd: root,
      timeout: 90_000,
    });
    expect(stdout.trim().split("\n")).toEqual(["The tool gave me: text, image.", "true"]);
  }, 120_000);
});
