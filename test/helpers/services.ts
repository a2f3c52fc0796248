// Reachability of the local Redis and PostgreSQL servers for service-backed tests. When CI or
// AGENTCORE_REQUIRE_SERVICES is set, an unreachable server fails the run loudly; otherwise the
// tests are skipped with a visible message.
import { connect } from "node:net";
import type { Redis } from "ioredis";

export const servicesRequired = Boolean(process.env.CI || process.env.AGENTCORE_REQUIRE_SERVICES);

export const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
export const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Whether the service answers. Throws when it does not and services are required; prints why
 * the tests are skipped otherwise.
 */
export async function serviceAvailable(name: "redis" | "postgres"): Promise<boolean> {
  const url = name === "redis" ? redisUrl : postgresUrl;
  const ok = await reachable(url, name === "redis" ? 6379 : 5432);
  if (ok) return true;
  if (servicesRequired) {
    throw new Error(`${name} is not reachable at ${url}, and CI / AGENTCORE_REQUIRE_SERVICES requires it.`);
  }
  console.warn(
    `\n[agentcore] SKIPPING ${name} tests: nothing answers at ${url}. Set AGENTCORE_REQUIRE_SERVICES=1 to make this fail.\n`,
  );
  return false;
}

/**
 * Deletes every key under a test run's own prefix (a fixed, unique name, never user input; its
 * glob characters escaped for SCAN's MATCH). Test cleanup only: the stores never scan.
 */
export async function deleteKeysWithPrefix(client: Pick<Redis, "scan" | "del">, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== "0");
}

/** A name no other test run uses: pid plus a random suffix. */
export function uniqueName(base: string): string {
  return `${base}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Prints why a test that needs an outside component (a browser, say) is skipped. */
export function skipMessage(what: string, why: string): string {
  const message = `[agentcore tests] skipping ${what}: ${why}. Set AGENTCORE_REQUIRE_SERVICES=1 to make this a failure.`;
  console.warn(message);
  return message;
}
