// The store subpaths of the built package: each loads in ESM and CommonJS, and the main entry
// never loads an optional peer (ioredis, pg, better-sqlite3, @upstash/redis, @modelcontextprotocol/sdk). `npm test` builds first.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

beforeAll(ensureFreshBuild, 240_000);

/** Every file the entry loads, following relative imports and requires. */
function closure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from\s*|require\()\s*["'](\.\.?\/[^"']+)["']/g))
      visit(resolve(dirname(file), match[1]!));
  };
  visit(join(root, "dist", entry));
  return [...seen];
}

describe("store subpaths of the built package", () => {
  it.each(["index.js", "index.cjs"])("the main entry (%s) loads no optional peer", (entry) => {
    for (const file of closure(entry)) {
      expect(readFileSync(file, "utf8"), file).not.toMatch(
        /(?:from\s*|require\()\s*["'](?:ioredis|pg|better-sqlite3|@upstash\/redis|@modelcontextprotocol\/sdk[^"']*)["']/,
      );
    }
  });

  it.each([
    ["redis", "RedisMemoryStore"],
    ["postgres", "PostgresMemoryStore"],
    ["sqlite", "SqliteMemoryStore"],
    ["mcp", "createMCPClient"],
    ["upstash", "UpstashRedisMemoryStore"],
    ["semantic", "InMemorySemanticIndex"],
  ])("agentcore/%s exports %s in ESM and CommonJS", (subpath, name) => {
    const esm = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import(${JSON.stringify(join(root, "dist", subpath, "index.js"))}).then((m) => console.log(typeof m.${name}))`,
      ],
      { encoding: "utf8" },
    );
    const cjs = execFileSync(
      process.execPath,
      ["-e", `console.log(typeof require(${JSON.stringify(join(root, "dist", subpath, "index.cjs"))}).${name})`],
      { encoding: "utf8" },
    );
    expect([esm.trim(), cjs.trim()]).toEqual(["function", "function"]);
  });

  it.each(["upstash/index.js", "upstash/index.cjs"])(
    "agentcore/upstash (%s), the edge store, loads no Node built-in",
    (entry) => {
      const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
      const files = closure(entry);
      expect(files.length).toBeGreaterThan(2); // the entry and the chunks it shares with the other stores
      const imported = files.flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/(?:from\s*|require\(|import\()\s*["']([^"'.][^"']*)["']/g)].map(
          (match) => match[1]!,
        ),
      );
      expect(imported.filter((name) => builtins.has(name))).toEqual([]);
    },
  );

  it.each(["semantic", "telemetry", "tuning"])(
    "agentcore/%s loads no optional peer and, in the edge build, no Node built-in",
    (subpath) => {
      const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
      const peers =
        /^(?:ioredis|pg|better-sqlite3|@upstash\/redis|mem0ai|@opentelemetry\/api|@modelcontextprotocol\/sdk)/;
      const imports = (entry: string) =>
        closure(entry).flatMap((file) =>
          [...readFileSync(file, "utf8").matchAll(/(?:from\s*|require\(|import\()\s*["']([^"'.][^"']*)["']/g)].map(
            (match) => match[1]!,
          ),
        );
      for (const entry of [`${subpath}/index.js`, `${subpath}/index.cjs`, `edge/${subpath}/index.js`])
        expect(
          imports(entry).filter((name) => peers.test(name)),
          entry,
        ).toEqual([]);
      expect(imports(`edge/${subpath}/index.js`).filter((name) => builtins.has(name))).toEqual([]);
    },
  );

  it("declares the subpaths in package.json exports", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([
        "./redis",
        "./postgres",
        "./sqlite",
        "./mcp",
        "./upstash",
        "./testing",
        "./semantic",
        "./telemetry",
        "./tuning",
      ]),
    );
  });
});
