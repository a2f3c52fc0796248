/**
 * The contenders of bench/load.bench.ts: how each one seeds its store (in the parent), runs one
 * turn (in a worker process), reads a session back (in the parent, to count what was lost or
 * duplicated) and cleans up. Every contender runs the same turn: load the session's recent
 * history (a window of the last 20 messages), answer with an instant model, persist the user
 * message and the answer.

 *
 * The libraries are imported lazily, by the contender that needs them: a worker loads Mastra
 * or LangGraph only for their cells.
 */
import type pg from "pg";

export type ContenderId =
  | "agentcore-redis"
  | "agentcore-redis-unfolded"
  | "agentcore-redis-cluster"
  | "agentcore-redis-cluster-unfolded"
  | "agentcore-redis-cluster-wait"
  | "agentcore-postgres"
  | "mastra-postgres"
  | "langgraph-postgres";

/** Everything a cell needs, sent to every worker as is (JSON). */
export interface CellConfig {
  contender: ContenderId;
  redisUrl: string;
  clusterNodes: { host: string; port: number }[];
  postgresUrl: string;
  /** Redis key prefix or PostgreSQL schema of this cell alone. */
  namespace: string;
  /** Messages already stored in each active session. */
  history: number;
  /** Connections per worker process (pg pool `max`; Redis: one connection, or one per node). */
  poolSize: number;
}

/** The window every contender applies: the last 20 stored messages, plus the new user message. */
export const WINDOW = 20;
export const REPLY = "ok, noted: a short scripted answer of ordinary length for the benchmark.";
/** Messages in each filler (non-active) session: two short user/assistant turns. */
export const FILLER_MESSAGES = 4;
export const RESOURCE = "bench-user";
export const BASE_TIME = 1_700_000_000_000;

export const seedText = (index: number) =>
  `message number ${index}: a sentence or two of ordinary chat text, about the length of a real turn.`;
export const seedRole = (index: number): "user" | "assistant" => (index % 2 === 0 ? "user" : "assistant");
export const turnText = (sessionId: string, turn: number) =>
  `${sessionId} turn ${turn}: the next question of this conversation`;

/** What a worker holds for one cell. */
export interface OpenContender {
  turn(sessionId: string, turn: number): Promise<void>;
  close(): Promise<void>;
}

/** Role and text of each stored message, in stored order. */
export type StoredTranscript = { role: string; text: string }[];

/** Runs `body` on each item, at most `limit` at a time. */
export async function eachLimited<T>(items: T[], limit: number, body: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await body(items[next++]!);
    }),
  );
}

/** What a contender module exports. */
export interface ContenderImplementation {
  seed(config: CellConfig, active: string[], filler: string[], pool: pg.Pool): Promise<void>;
  open(config: CellConfig): Promise<OpenContender>;
  read(config: CellConfig, sessionId: string, pool: pg.Pool): Promise<StoredTranscript>;
}

export interface Contender {
  id: ContenderId;
  name: string;
  /** The store it runs on, for the side-by-side ratios. */
  store: "Redis" | "Redis Cluster" | "PostgreSQL";
  /** Runs only when LOAD_BENCH_ONLY names it (a comparison while working on the store, not a row of the report). */
  optIn?: true;
  load(): Promise<ContenderImplementation>;
}

const agentcore = async () => (await import("./agentcore-contender")).agentcore;

export const contenders: Contender[] = [
  { id: "agentcore-redis", name: "agentcore RedisMemoryStore", store: "Redis", load: agentcore },
  {
    id: "agentcore-redis-unfolded",
    name: "agentcore RedisMemoryStore, turn not folded",
    store: "Redis",
    optIn: true,
    load: agentcore,
  },
  {
    id: "agentcore-redis-cluster",
    name: "agentcore RedisMemoryStore, Redis Cluster",
    store: "Redis Cluster",
    load: agentcore,
  },
  {
    id: "agentcore-redis-cluster-unfolded",
    name: "agentcore RedisMemoryStore, Redis Cluster, turn not folded",
    store: "Redis Cluster",
    optIn: true,
    load: agentcore,
  },
  {
    id: "agentcore-redis-cluster-wait",
    name: "agentcore RedisMemoryStore, Redis Cluster, waitForReplicas 1",
    store: "Redis Cluster",
    load: agentcore,
  },
  { id: "agentcore-postgres", name: "agentcore PostgresMemoryStore", store: "PostgreSQL", load: agentcore },
  {
    id: "mastra-postgres",
    name: "Mastra Memory, PostgresStore",
    store: "PostgreSQL",
    load: async () => (await import("./mastra-contender")).mastra,
  },
  {
    id: "langgraph-postgres",
    name: "LangGraph PostgresSaver",
    store: "PostgreSQL",
    load: async () => (await import("./langgraph-contender")).langgraph,
  },
];

export function contenderOf(id: ContenderId): Contender {
  const found = contenders.find((contender) => contender.id === id);
  if (!found) throw new Error(`unknown contender ${id}`);
  return found;
}
