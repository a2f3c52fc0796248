/** @type {import('next').NextConfig} */
const nextConfig = {
  // Optional peers of agentcore that this app does not use stay out of the bundle.
  serverExternalPackages: ["ioredis", "pg", "better-sqlite3", "mem0ai"],
};

export default nextConfig;
