// A merge that leaves conflict markers in a file Biome does not parse (Markdown, YAML, shell) is
// caught here: every tracked text file is read, and no line may be a conflict marker.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const MARKER = /^(?:<{7}(?: .*)?|={7}|>{7}(?: .*)?)$/;
const TEXT = /\.(?:md|ts|tsx|js|mjs|cjs|json|ya?ml|sh|css|html|txt)$|(?:^|\/)run$/;

describe("the tree", () => {
  it("has no merge-conflict markers in any tracked text file", () => {
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((file) => TEXT.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(root, file), "utf8");
      } catch {
        continue; // deleted in the working tree
      }
      text.split("\n").forEach((line, index) => {
        if (MARKER.test(line)) found.push(`${file}:${index + 1}: ${line}`);
      });
    }
    expect(found).toEqual([]);
  });
});
