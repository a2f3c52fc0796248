import { realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, "../..");

/**
 * The folder Turbopack compiles from: the repository, or, when its node_modules is a link to
 * another checkout's (git worktrees sharing one install), the folder holding both.
 */
function workspaceRoot() {
  let modules;
  try {
    modules = dirname(realpathSync(join(repository, "node_modules")));
  } catch {
    return repository;
  }
  const a = repository.split(sep);
  const b = modules.split(sep);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return a.slice(0, shared).join(sep) || sep;
}

const root = workspaceRoot();

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The example lives inside the agentcore repository and uses its node_modules.
  turbopack: { root },
  outputFileTracingRoot: root,
  // Optional peers of agentcore that this example does not use stay out of the bundle.
  serverExternalPackages: ["ioredis", "pg", "better-sqlite3", "mem0ai"],
};

export default nextConfig;
