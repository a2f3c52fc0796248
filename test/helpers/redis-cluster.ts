// A throwaway local Redis Cluster (3 masters, 3 replicas) for the cluster tests, started with
// scripts/redis-cluster.sh on free loopback ports in a temporary directory, and stopped by the
// pids it recorded there. When redis-server is missing or the cluster does not come up, CI /
// AGENTCORE_REQUIRE_SERVICES turns that into a failure; otherwise the tests are skipped.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { servicesRequired, skipMessage } from "./services";

const run = promisify(execFile);
const script = new URL("../../scripts/redis-cluster.sh", import.meta.url).pathname;

export interface LocalRedisCluster {
  /** The six nodes' ports, masters first as created (`redis-cli --cluster create` order). */
  ports: number[];
  /** Seed nodes for `new Cluster(nodes)`. */
  nodes: { host: string; port: number }[];
  /** Kills the node on `port` with SIGKILL (a crash: no shutdown, no save) and forgets its pid. */
  kill(port: number): void;
  /** Sends the node on `port` a signal (SIGSTOP / SIGCONT to freeze and thaw it). */
  signal(port: number, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A base port whose 6 node ports and 6 bus ports (+10000) are all free. */
async function freeBasePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 900) * 10;
    const ports = Array.from({ length: 6 }, (_, index) => base + index);
    const free = await Promise.all([...ports, ...ports.map((port) => port + 10_000)].map(portFree));
    if (free.every(Boolean)) return base;
  }
  throw new Error("no free ports for a local Redis Cluster");
}

/** Starts a cluster, or returns undefined (tests skipped) when that is impossible and services are not required. */
export async function startRedisCluster(): Promise<LocalRedisCluster | undefined> {
  const directory = mkdtempSync(join(tmpdir(), "agentcore-redis-cluster-"));
  try {
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const base = await freeBasePort();
      try {
        await run("bash", [script, "start", directory, String(base)], { timeout: 60_000 });
        const ports = Array.from({ length: 6 }, (_, index) => base + index);
        return {
          ports,
          nodes: ports.map((port) => ({ host: "127.0.0.1", port })),
          signal: (port, signal) =>
            process.kill(Number(readFileSync(join(directory, `node-${port}`, "redis.pid"), "utf8").trim()), signal),
          kill: (port) => {
            const pidFile = join(directory, `node-${port}`, "redis.pid");
            process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
            rmSync(pidFile);
          },
          stop: async () => {
            await run("bash", [script, "stop", directory]).catch(() => {});
            rmSync(directory, { recursive: true, force: true });
          },
        };
      } catch (error) {
        lastError = error; // a port taken in between: try other ports
        await run("bash", [script, "stop", directory]).catch(() => {});
      }
    }
    throw lastError;
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    const why = `could not start a local Redis Cluster (${error instanceof Error ? error.message : String(error)})`;
    if (servicesRequired) throw new Error(`${why}, and CI / AGENTCORE_REQUIRE_SERVICES requires it.`);
    skipMessage("Redis Cluster tests", why);
    return undefined;
  }
}
