// Bundles a TypeScript child script to one CommonJS file so child processes start in tens of
// milliseconds (no TypeScript loader). The bundle lives under node_modules/.cache, so its
// external imports (native better-sqlite3, pg, ioredis) resolve from the project.
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function bundleChild(entry: string): Promise<string> {
  const directory = join(
    root,
    "node_modules",
    ".cache",
    "agentcore-tests",
    `${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  mkdirSync(directory, { recursive: true });
  const outfile = join(directory, "child.cjs");
  await build({
    entryPoints: [resolve(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["better-sqlite3", "pg", "ioredis", "pg-native"],
    logLevel: "silent",
  });
  return outfile;
}
