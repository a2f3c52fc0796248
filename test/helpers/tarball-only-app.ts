// An app whose package.json depends on the packed agentcore tarball and nothing optional: `npm pack`
// of this checkout, the tarball installed with its own dependencies into an empty directory
// outside the repository (no mem0ai, no @opentelemetry/api, no other optional peer), and the
// frameworks the app names linked from this repository's node_modules (the same versions, no
// second download). Unlike test/helpers/packed-app.ts, which links every documented peer in.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ensureFreshBuild } from "./ensure-build";

const run = promisify(execFile);
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface TarballOnlyApp {
  dir: string;
  /** Writes a file of the app. */
  write(name: string, content: string): void;
  remove(): void;
}

/** Packs this checkout and installs the tarball into a fresh app that also depends on `linked` (linked from node_modules). */
export async function tarballOnlyApp(linked: readonly string[]): Promise<TarballOnlyApp> {
  await ensureFreshBuild();
  const dir = mkdtempSync(join(tmpdir(), "agentcore-tarball-app-"));
  // dist/ is fresh (ensureFreshBuild): no prepack build here.
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], root);
  const tarball = join(dir, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
  // Only agentcore comes from npm (its own dependencies, from the cache when they are there).
  const manifest = (dependencies: Record<string, string>) =>
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tarball-only-app", private: true, dependencies }));
  manifest({ agentcore: `file:${tarball}` });
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
  // Then the frameworks, already installed here: linked, and named in package.json with their versions.
  const version = (name: string) =>
    (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  manifest({ agentcore: `file:${tarball}`, ...Object.fromEntries(linked.map((name) => [name, version(name)])) });
  for (const name of linked) {
    const target = join(dir, "node_modules", name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, "node_modules", name), target, "dir");
  }
  return {
    dir,
    write(name, content) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs npm without the settings `npm test` passes down to its children. */
async function npm(args: string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const { stdout } = await run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
