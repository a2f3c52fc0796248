import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) of the files below `directory`, or -Infinity for none. */
function newestMtime(directory: string): number {
  let newest = -Infinity;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Whether the build in `dist` is missing or older than a file it is built from: any source under
 * `src`, or one of the `configFiles` (package.json, tsup.config.ts). The package tests import
 * `dist/`, so they must never run against a stale build.
 */
export function isBuildStale(
  root: string,
  configFiles: readonly string[] = ["package.json", "tsup.config.ts"],
): boolean {
  const marker = join(root, "dist", "index.js");
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  const sources = Math.max(
    newestMtime(join(root, "src")),
    ...configFiles.filter((file) => existsSync(join(root, file))).map((file) => statSync(join(root, file)).mtimeMs),
  );
  return sources > built;
}
