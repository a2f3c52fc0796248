// A fresh app with the packed package installed, as a user gets it: `npm pack` of this checkout,
// then `npm install` of the tarball into an empty directory outside the repository (so nothing
// resolves from the repository's own node_modules by accident). Built once per packed tarball and
// reused by every test file that needs it (test/package-consumer.test.ts, test/docs-blocks.test.ts):
// a lock keeps parallel test files from installing at once, and a tarball with the same bytes
// finds the app ready. The app holds only what the README documents: agentcore (with its own
// dependencies, zod among them), and, linked from this repository's node_modules (the same
// versions, no second download), the optional peers and their type packages, TypeScript and tsx.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import lockfile from "proper-lockfile";
import { ensureFreshBuild } from "./ensure-build";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** What a README or docs page tells a user to install beside agentcore, per feature; and the tools the tests run. */
export const documentedPackages = [
  "ioredis",
  "pg",
  "@types/pg",
  "better-sqlite3",
  "@types/better-sqlite3",
  "@upstash/redis",
  "@modelcontextprotocol/sdk",
  "@opentelemetry/api",
  "@opentelemetry/context-async-hooks",
  "mem0ai",
  "@ai-sdk/openai",
  "typescript",
  "tsx",
  "@types/node",
];

export interface PackedApp {
  /** The app's directory: `node_modules/agentcore` is the installed tarball. */
  dir: string;
  /** What `npm install` of the tarball printed (stdout and stderr). */
  installLog: string;
  /** The package.json inside the tarball. */
  manifest: { scripts?: Record<string, string>; [key: string]: unknown };
}

/** Packs this checkout and returns the app that has the tarball installed (installing it when the tarball changed). */
export async function packedApp(): Promise<PackedApp> {
  await ensureFreshBuild();
  const base = join(tmpdir(), `agentcore-packed-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`);
  mkdirSync(base, { recursive: true });
  const release = await lockfile.lock(base, {
    lockfilePath: join(base, ".lock"),
    stale: 300_000,
    retries: { retries: 600, minTimeout: 500, maxTimeout: 500 },
  });
  try {
    // dist/ is fresh (ensureFreshBuild): no prepack build here.
    const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", base], root);
    const tarball = join(base, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
    const digest = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    const dir = join(base, "app");
    const stamp = join(dir, ".tarball-sha256");
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== digest) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({
          name: "agentcore-docs-app",
          private: true,
          type: "module",
          dependencies: { agentcore: `file:${tarball}`, zod: own.dependencies.zod },
        }),
      );
      const log = await npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir, true);
      writeFileSync(join(dir, "install.log"), log);
      for (const name of documentedPackages) {
        const target = join(dir, "node_modules", name);
        if (existsSync(target)) continue;
        mkdirSync(dirname(target), { recursive: true });
        symlinkSync(join(root, "node_modules", name), target, "dir");
      }
      writeFileSync(stamp, digest);
    }
    const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "agentcore", "package.json"), "utf8"));
    return { dir, installLog: readFileSync(join(dir, "install.log"), "utf8"), manifest };
  } finally {
    await release();
  }
}

/** Runs npm without the settings `npm test` passes down to its children. */
async function npm(args: string[], cwd: string, withStderr = false): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const { stdout, stderr } = await run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  return withStderr ? `${stdout}\n${stderr}` : stdout;
}
