// examples/rich-messages.ts runs offline as docs/messages.md says: the parts reach the model, the image is
// stored as bytes, and the message is counted with its image, PDF and URL.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/rich-messages.ts", () => {
  it("runs offline: parts reach the model and come back from the store as bytes", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/rich-messages.ts"], {
      cwd: root,
      timeout: 90_000,
    });
    const [answer, isBytes, tokens] = stdout.trim().split("\n");
    expect(answer).toBe("I received: text, image, file, image.");
    expect(isBytes).toBe("true");
    // 255 (the PNG: one tile) + 2,000 (a one-page PDF) + 1,600 (the URL's default) and the text.
    expect(Number(tokens)).toBeGreaterThan(255 + 2000 + 1600);
    expect(Number(tokens)).toBeLessThan(255 + 2000 + 1600 + 40);
  }, 120_000);
});
