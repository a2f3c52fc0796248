import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The example lives inside the agentcore repository and uses its node_modules.
  turbopack: { root: resolve(here, "../..") },
  outputFileTracingRoot: resolve(here, "../.."),
  // Optional peers of agentcore that this example does not use stay out of the bundle.
  serverExternalPackages: ["ioredis", "pg", "better-sqlite3", "mem0ai"],
};

export default nextConfig;
