// The Next.js example as a user gets it, for test/nextjs-chat.e2e.test.ts: examples/nextjs-chat
// copied into a fresh directory outside the repository (as `npx degit` would), with agentcore
// installed from the packed tarball (test/helpers/packed-app.ts) and its other dependencies linked
// from this repository's node_modules (the versions the repository tests with, which its
// package.json must name; ai 7 and @ai-sdk/react 4 under their aliases ai-v7 and
// @ai-sdk/react-v4), then built once with `next build` (Turbopack).
import { spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { packedApp } from "./packed-app";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const exampleDir = join(root, "examples", "nextjs-chat");

/** Optional peers of agentcore the example keeps external (`serverExternalPackages`), as the packed app links them. */
const externalPeers = ["ioredis", "pg", "better-sqlite3", "mem0ai"];

/**
 * The example's dependencies this repository keeps under another name: its root `ai` and
 * `@ai-sdk/react` are AI SDK 6 (most tests use them), the example runs on AI SDK 7.
 */
const aliases: Record<string, string> = { ai: "ai-v7", "@ai-sdk/react": "@ai-sdk/react-v4" };

type Manifest = { version: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const readManifest = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Manifest;

/**
 * Where the example's package.json disagrees with the repository: a dependency whose range is
 * not the one the repository tests with, or agentcore not at this checkout's version.
 */
export function dependencyMismatches(): string[] {
  const own = readManifest(join(root, "package.json"));
  const example = readManifest(join(exampleDir, "package.json"));
  const tested = { ...own.devDependencies, ...own.dependencies };
  const wanted = { ...example.dependencies, ...example.devDependencies };
  return Object.entries(wanted).flatMap(([name, range]) => {
    // An alias pins one version ("npm:ai@7.0.185"): the example asks for it with a caret.
    const alias = aliases[name] === undefined ? undefined : tested[aliases[name]]?.replace(/^npm:.+@/, "^");
    const expected = name === "agentcore" ? `^${own.version}` : (alias ?? tested[name]);
    return range === expected ? [] : [`${name}: the example asks ${range}, the repository tests ${expected}`];
  });
}

/** The longest folder that holds every one of `paths`. */
function commonFolder(paths: string[]): string {
  const split = paths.map((path) => path.split(sep));
  let shared = 0;
  while (split.every((parts) => parts[shared] !== undefined && parts[shared] === split[0]![shared])) shared++;
  return split[0]!.slice(0, shared).join(sep) || sep;
}

/** Copies the example, installs its dependencies (agentcore from the tarball) and runs `next build`; returns the app's folder. */
export async function buildChatApp(environment: NodeJS.ProcessEnv): Promise<string> {
  // While working on the test alone: a copy this function built before (its folder), reused as is.
  const reused = process.env.AGENTCORE_NEXTJS_CHAT_APP;
  if (reused) return reused;
  const packed = await packedApp();
  const dir = mkdtempSync(join(tmpdir(), "agentcore-nextjs-chat-app-"));
  cpSync(exampleDir, dir, {
    recursive: true,
    filter: (source) => {
      const path = relative(exampleDir, source);
      return !/^(node_modules|\.next|\.agentcore)(\/|$)/.test(path) && basename(path) !== "next-env.d.ts";
    },
  });
  const example = readManifest(join(dir, "package.json"));
  const link = (name: string, target: string) => {
    const path = join(dir, "node_modules", name);
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(realpathSync(target), path, "dir");
  };
  for (const name of Object.keys({ ...example.dependencies, ...example.devDependencies }))
    link(
      name,
      name === "agentcore"
        ? join(packed.dir, "node_modules", "agentcore")
        : join(root, "node_modules", aliases[name] ?? name),
    );
  for (const name of externalPeers) link(name, join(packed.dir, "node_modules", name));

  // The links point outside the app's folder: Turbopack must be told the folder that holds them
  // all. The example's own config is kept as is and wrapped (a copied app has real node_modules).
  const workspace = commonFolder([
    dir,
    realpathSync(join(packed.dir, "node_modules")),
    realpathSync(join(root, "node_modules")),
  ]);
  renameSync(join(dir, "next.config.mjs"), join(dir, "next.config.example.mjs"));
  writeFileSync(
    join(dir, "next.config.mjs"),
    `import config from "./next.config.example.mjs";\n` +
      `export default { ...config, turbopack: { root: ${JSON.stringify(workspace)} }, outputFileTracingRoot: ${JSON.stringify(workspace)} };\n`,
  );
  // Not spawnSync: the test runner's timeout must be able to fire while it builds.
  const build = spawn(process.execPath, [nextBin(dir), "build", dir], { cwd: dir, env: environment });
  let log = "";
  const collect = (data: Buffer) => {
    log += data.toString("utf8");
  };
  build.stdout.on("data", collect);
  build.stderr.on("data", collect);
  const code = await new Promise<number | null>((resolveExit) => build.once("exit", resolveExit));
  if (code !== 0) throw new Error(`next build failed (${code}):\n${log}`);
  return dir;
}

/** The app's own `next` command line. */
export function nextBin(dir: string): string {
  return join(dir, "node_modules", "next", "dist", "bin", "next");
}

/** Starts the built app with `next start` on loopback; what it writes to stderr goes to `onLog`. */
export function startChatApp(
  dir: string,
  port: number,
  environment: NodeJS.ProcessEnv,
  onLog: (text: string) => void,
): ChildProcess {
  const server = spawn(process.execPath, [nextBin(dir), "start", dir, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: environment,
    stdio: ["ignore", "ignore", "pipe"],
  });
  server.stderr!.on("data", (data: Buffer) => onLog(data.toString("utf8")));
  return server;
}
