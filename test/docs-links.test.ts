// README.md is a front door (at most 300 lines, linking every docs/ page with one line), and every
// relative link of README.md and docs/*.md reaches a file, and with `#anchor` a heading of it
// (test/helpers/markdown-links.ts). The checker first proves on a made-up page that it can fail.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokenLinks } from "./helpers/markdown-links";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the link check can fail", () => {
  it("finds a link to no file and an anchor to no heading, and skips code blocks", () => {
    const page = resolve(root, "made-up.md");
    const text =
      "# Made up\n[a](docs/stores.md#writing-your-own-store) [b](docs/nope.md) [c](docs/stores.md#nope) [d](#made-up) [e](#nope)\n```\n[f](nope.md)\n```";
    const read = (path: string) => (path === page ? text : readFileSync(path, "utf8"));
    expect(brokenLinks(page, read)).toEqual([
      `${page}:2 docs/nope.md`,
      `${page}:2 docs/stores.md#nope`,
      `${page}:2 #nope`,
    ]);
  });
});

describe("README.md and docs/ (the README a front door, every page reachable)", () => {
  const pages = readdirSync(resolve(root, "docs")).filter((name) => name.endsWith(".md"));
  const readme = readFileSync(resolve(root, "README.md"), "utf8");

  it("keeps README.md at most 300 lines, linking every docs/ page", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    expect(pages.filter((name) => !readme.includes(`](docs/${name})`))).toEqual([]);
  });

  it("has relative links that reach a file, and a heading when they name an anchor", () => {
    const documents = [resolve(root, "README.md"), ...pages.map((name) => resolve(root, "docs", name))];
    expect(documents.flatMap((document) => brokenLinks(document))).toEqual([]);
  });
});
