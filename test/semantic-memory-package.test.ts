// The built package: mem0ai stays a lazy, optional import; stemmer (ESM-only) is bundled so the
// CommonJS build works. The test run builds dist/ first when it is stale (test/helpers/ensure-build.ts).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

beforeAll(ensureFreshBuild, 240_000);
const dist = join(root, "dist");

describe("semantic memory in the built package", () => {
  it("never imports mem0ai statically, and bundles stemmer", () => {
    const files = readdirSync(dist).filter((file) => /\.(c?js)$/.test(file));
    for (const file of files) {
      const code = readFileSync(join(dist, file), "utf8");
      expect(code, file).not.toMatch(/(from\s*["']mem0ai["']|require\(\s*["']mem0ai["']\s*\)|import\s*["']mem0ai["'])/);
      expect(code, file).not.toMatch(/(from\s*["']stemmer["']|require\(\s*["']stemmer["']\s*\))/);
    }
  });

  it("recalls through the CommonJS and ESM builds", () => {
    const body = `
      const provider = new SemanticMemoryProvider();
      await provider.write([{ id: "m1", role: "user", content: "The walking boots are in the attic." }], { sessionId: "s" });
      const [record] = await provider.read({ sessionId: "s", query: "where are my boots?" });
      console.log(record.messageId);`;
    const cjs = execFileSync(
      process.execPath,
      [
        "-e",
        `const { SemanticMemoryProvider } = require(${JSON.stringify(join(dist, "index.cjs"))}); (async () => { ${body} })();`,
      ],
      {
        encoding: "utf8",
      },
    );
    expect(cjs.trim()).toBe("m1");
    const esm = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { SemanticMemoryProvider } from ${JSON.stringify(join(dist, "index.js"))}; ${body}`,
      ],
      { encoding: "utf8" },
    );
    expect(esm.trim()).toBe("m1");
  });
});
