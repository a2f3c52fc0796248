import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isBuildStale } from "./helpers/build-freshness";

describe("isBuildStale (the package tests' guard against testing an old dist/)", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const project = () => {
    root = mkdtempSync(join(tmpdir(), "agentcore-freshness-"));
    mkdirSync(join(root, "src", "deep"), { recursive: true });
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "src", "deep", "a.ts"), "export {}");
    writeFileSync(join(root, "package.json"), "{}");
    writeFileSync(join(root, "dist", "index.js"), "");
    const at = (path: string, seconds: number) => utimesSync(join(root!, path), seconds, seconds);
    return { root, at };
  };

  it("is stale when dist is missing", () => {
    const { root } = project();
    rmSync(join(root, "dist"), { recursive: true });
    expect(isBuildStale(root)).toBe(true);
  });

  it("is fresh when the build is newer than every source and config file", () => {
    const { root, at } = project();
    at("src/deep/a.ts", 1_000);
    at("package.json", 1_000);
    at("dist/index.js", 2_000);
    expect(isBuildStale(root)).toBe(false);
  });

  it("is stale when a nested source or a config file changed after the build", () => {
    const { root, at } = project();
    at("package.json", 1_000);
    at("dist/index.js", 2_000);
    at("src/deep/a.ts", 3_000);
    expect(isBuildStale(root)).toBe(true);
    at("src/deep/a.ts", 1_000);
    at("package.json", 3_000);
    expect(isBuildStale(root)).toBe(true);
  });
});
