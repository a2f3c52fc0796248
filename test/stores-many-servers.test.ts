// Several app servers on one store: 4 processes each run agent turns on the same 3 sessions at
// the same time (12 runs racing for 3 sessions), every turn a user message, a tool call, its
// result and the answer. Afterwards every turn is stored once, whole (its four messages side by
// side: the cross-process session lock kept runs apart), each server's turns in its order, the
// tool pairing valid, and on PostgreSQL the per-session sequence contiguous (0…n-1, no gap) with
// the session row's count and next sequence number equal to it.
import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../src/messages/agent-message";
import { isToolPairingValid } from "../src/messages/validate-tool-pairing";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { bundleChild } from "./helpers/bundle";
import { postgresUrl, redisUrl, serviceAvailable, uniqueName } from "./helpers/services";
import { rmSync } from "node:fs";

const run = promisify(execFile);
const [redisUp, postgresUp] = [await serviceAvailable("redis"), await serviceAvailable("postgres")];
const SERVERS = 4;
const SESSIONS = ["alpha", "beta", "gamma"];
const TURNS = 8;
let child: string;

beforeAll(async () => {
  child = await bundleChild("test/helpers/agent-turns-child.ts");
}, 60_000);
afterAll(() => {
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

async function runServers(kind: "postgres" | "redis", target: string, poolSize?: number): Promise<void> {
  await Promise.all(
    Array.from({ length: SERVERS }, (_, server) =>
      run(
        process.execPath,
        [child, JSON.stringify({ kind, target, server, sessions: SESSIONS, turns: TURNS, poolSize })],
        { timeout: 90_000 },
      ),
    ),
  );
}

/** Every turn of every server once and whole, in each server's order, the pairing valid. */
async function expectWholeTurns(store: MemoryStore): Promise<void> {
  for (const sessionId of SESSIONS) {
    const messages: AgentMessage[] = await store.getMessages(sessionId);
    expect(new Set(messages.map((message) => message.id)).size, "duplicated ids").toBe(messages.length);
    expect(messages, "lost or duplicated messages").toHaveLength(SERVERS * TURNS * 4);
    expect(isToolPairingValid(messages)).toBe(true);
    const order = new Map<number, number[]>();
    for (let index = 0; index < messages.length; index += 4) {
      const [user, call, result, answer] = messages.slice(index, index + 4) as [
        AgentMessage,
        AgentMessage,
        AgentMessage,
        AgentMessage,
      ];
      expect(user.role).toBe("user");
      const [, server, session, turn] = /^s(\d+) (\w+) t(\d+)$/.exec(user.content as string) ?? [];
      expect(session).toBe(sessionId);
      expect(call).toMatchObject({ role: "assistant", toolCalls: [{ id: `call-${user.content}`, name: "note" }] });
      expect(result).toMatchObject({
        role: "tool",
        toolCallId: `call-${user.content}`,
        content: `noted ${user.content}`,
      });
      expect(answer).toMatchObject({ role: "assistant", content: `answer to ${user.content}` });
      order.set(Number(server), [...(order.get(Number(server)) ?? []), Number(turn)]);
    }
    for (let server = 0; server < SERVERS; server++)
      expect(order.get(server)).toEqual(Array.from({ length: TURNS }, (_, turn) => turn));
    const tail = await store.getMessageTail!(sessionId, 4);
    expect(tail).toEqual({ messages: messages.slice(-4), total: messages.length });
  }
}

describe(`${SERVERS} app-server processes running agent turns on the same ${SESSIONS.length} sessions at once`, () => {
  it.skipIf(!postgresUp)(
    "PostgresMemoryStore (2 pooled connections per process)",
    async () => {
      const schema = uniqueName("agentcore_servers").toLowerCase();
      const pool = new pg.Pool({ connectionString: postgresUrl });
      try {
        await runServers("postgres", `${postgresUrl}|${schema}`, 2);
        const store = new PostgresMemoryStore({ pool, schema });
        await expectWholeTurns(store);
        for (const sessionId of SESSIONS) {
          const { rows } = await pool.query<{ seq: string }>(
            `SELECT seq FROM "${schema}"."agentcore_messages" WHERE session_id = $1 ORDER BY seq`,
            [sessionId],
          );
          const count = SERVERS * TURNS * 4;
          expect(
            rows.map((row) => Number(row.seq)),
            "the sequence has gaps",
          ).toEqual(Array.from({ length: count }, (_, seq) => seq));
          const session = await pool.query<{ message_count: string; next_seq: string }>(
            `SELECT message_count, next_seq FROM "${schema}"."agentcore_sessions" WHERE session_id = $1`,
            [sessionId],
          );
          expect(session.rows[0]).toEqual({ message_count: String(count), next_seq: String(count) });
        }
        const locks = await pool.query(`SELECT session_id FROM "${schema}"."agentcore_session_locks"`);
        expect(locks.rows, "a lock left behind").toEqual([]);
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      }
    },
    120_000,
  );

  it.skipIf(!redisUp)(
    "RedisMemoryStore",
    async () => {
      const prefix = `${uniqueName("agentcore-servers")}:`;
      const client = new Redis(redisUrl);
      const store = new RedisMemoryStore({ client, prefix });
      try {
        await runServers("redis", `${redisUrl}|${prefix}`);
        await expectWholeTurns(store);
        for (const sessionId of SESSIONS)
          expect(await client.exists(`${prefix}{${sessionId}}:lock`), "a lock left behind").toBe(0);
      } finally {
        for (const sessionId of SESSIONS) await store.clearMessages(sessionId);
        await client.quit();
      }
    },
    120_000,
  );
});
