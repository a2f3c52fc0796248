import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InMemoryStore } from "../stores/in-memory-store";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { CliError } from "./cli-error";

/** The store the command uses when `--store` is not given. */
export const DEFAULT_STORE_URL = "file:./.agentcore/sessions.json";

export interface OpenedStore {
  store: MemoryStore;
  /** What the URL named, for messages (without credentials). */
  label: string;
  /** Releases connections and files the command opened. */
  close(): Promise<void>;
}

const connectTimeoutMs = 5000;

/**
 * Opens a store from a URL: `memory:`, `file:./path.json`, `sqlite:./path.db`,
 * `redis://host:port/db`, `postgres://user@host/db`. Optional peers (better-sqlite3, ioredis, pg)
 * are loaded only for their scheme. A store that cannot be reached is a `CliError` (exit 2).
 */
export async function openStore(url: string): Promise<OpenedStore> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case "memory":
      return { store: new InMemoryStore(), label: "memory:", close: async () => {} };
    case "file": {
      const path = resolve(url.slice("file:".length).replace(/^\/\//, ""));
      if (path.length === 0) throw new CliError(`--store ${url}: give a path, e.g. file:./sessions.json`);
      mkdirSync(dirname(path), { recursive: true });
      return { store: new FileMemoryStore({ path }), label: `file:${path}`, close: async () => {} };
    }
    case "sqlite": {
      const path = resolve(url.slice("sqlite:".length).replace(/^\/\//, ""));
      mkdirSync(dirname(path), { recursive: true });
      const { SqliteMemoryStore } = await loadPeer(() => import("../stores/sqlite/index"), "better-sqlite3", "sqlite:");
      let store: InstanceType<typeof SqliteMemoryStore>;
      try {
        store = new SqliteMemoryStore({ database: path });
      } catch (error) {
        throw new CliError(`cannot open the SQLite store at ${path}: ${message(error)}`);
      }
      return { store, label: `sqlite:${path}`, close: async () => store.close() };
    }
    case "redis":
    case "rediss": {
      const { Redis } = await loadPeer(() => import("ioredis"), "ioredis", "redis://");
      const { RedisMemoryStore } = await import("../stores/redis/index");
      const client = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        retryStrategy: () => null,
        connectTimeout: connectTimeoutMs,
      });
      let connectionError: unknown;
      client.on("error", (error) => {
        connectionError ??= error; // reported below, once
      });
      try {
        await withTimeout(client.connect(), `redis at ${redact(url)}`);
        await client.ping();
      } catch (error) {
        client.disconnect();
        throw new CliError(`cannot reach the Redis store at ${redact(url)}: ${message(connectionError ?? error)}`);
      }
      return {
        store: new RedisMemoryStore({ client }),
        label: redact(url),
        close: async () => void (await client.quit().catch(() => client.disconnect())),
      };
    }
    case "postgres":
    case "postgresql": {
      const pg = await loadPeer(() => import("pg"), "pg", "postgres://");
      const { PostgresMemoryStore } = await import("../stores/postgres/index");
      const Pool = (pg as unknown as { default?: typeof import("pg") }).default?.Pool ?? pg.Pool;
      const pool = new Pool({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, max: 4 });
      pool.on("error", () => {});
      try {
        await pool.query("select 1");
      } catch (error) {
        await pool.end().catch(() => {});
        throw new CliError(`cannot reach the PostgreSQL store at ${redact(url)}: ${message(error)}`);
      }
      return { store: new PostgresMemoryStore({ pool }), label: redact(url), close: () => pool.end() };
    }
    default:
      throw new CliError(
        `--store ${url}: unknown kind of store; use memory:, file:./path.json, sqlite:./path.db, redis://host:6379 or postgres://user@host/db`,
      );
  }
}

async function loadPeer<T>(load: () => Promise<T>, name: string, scheme: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (
      (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" ||
      (error as { code?: string }).code === "MODULE_NOT_FOUND"
    ) {
      throw new CliError(`${scheme} stores need the "${name}" package: npm install ${name}`);
    }
    throw error;
  }
}

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer from ${what} within ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL without its password. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

function message(error: unknown): string {
  const text =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return text.split("\n")[0]!;
}
