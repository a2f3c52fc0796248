// PostgreSQL session-lock faults, against the real server: pools as small as the number of
// concurrent runs (or one connection), connections killed while a run holds its lock, and a
// holder whose lease was taken over trying to commit. Figures are in docs/stores.md.
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../src/agent/agent";
import { SessionBusyError } from "../src/errors/session-busy-error";
import { SessionLockLostError } from "../src/errors/session-lock-lost-error";
import { StoreError } from "../src/errors/store-error";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { bundleChild } from "./helpers/bundle";
import { postgresUrl, serviceAvailable, uniqueName } from "./helpers/services";

const run = promisify(execFile);
const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_faults").toLowerCase();

/** Rejects instead of hanging: a run that never settles fails the test with this message. */
function settleWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle in ${ms} ms (hung)`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

describe.skipIf(!available)("PostgresMemoryStore faults", () => {
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  let child: string;
  beforeAll(async () => {
    child = await bundleChild("test/helpers/postgres-kill-child.ts");
  }, 60_000);
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    if (child) rmSync(dirname(child), { recursive: true, force: true });
  });

  for (const [runs, max] of [
    [10, 10],
    [10, 1],
  ] as const) {
    it(`${runs} concurrent runs on ${runs} sessions settle with a pool of max: ${max}`, async () => {
      const pool = new pg.Pool({ connectionString: postgresUrl, max });
      try {
        const store = new PostgresMemoryStore({ pool, schema, tablePrefix: `pool${max}_` });
        await store.migrate();
        const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
        const agent = new Agent({ model, memoryStore: store });
        const started = Date.now();
        const results = await settleWithin(
          Promise.all(
            Array.from({ length: runs }, (_, index) => agent.run({ input: `hello ${index}`, sessionId: `s${index}` })),
          ),
          20_000,
          `${runs} runs on a max: ${max} pool`,
        );
        console.log(
          `[figures] ${runs} runs on ${runs} sessions, pool max ${max}: settled in ${Date.now() - started} ms`,
        );
        expect(results.map((result) => result.text)).toEqual(Array(runs).fill("ok"));
        for (let index = 0; index < runs; index++) expect(await store.getMessages(`s${index}`)).toHaveLength(2);
      } finally {
        await pool.end();
      }
    }, 30_000);
  }

  it("survives pg_terminate_backend of all its connections while a run holds the lock: no crash, each run completes or fails typed", async () => {
    const { stdout } = await run(process.execPath, [child, JSON.stringify({ url: postgresUrl, schema, turns: 3 })], {
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      outcomes: string[];
      messages: string[];
      killed: number;
    };
    expect(result.killed).toBeGreaterThan(0);
    for (const outcome of result.outcomes) expect(outcome).toMatch(/^(completed|typed \w+)$/);
    // Whatever completed is stored whole and in order: each question right before its answer.
    const completed = result.outcomes.filter((outcome) => outcome === "completed").length;
    expect(result.messages.length).toBe(2 * completed);
    for (let index = 0; index < result.messages.length; index += 2) {
      expect(result.messages[index]).toMatch(/^user:question \d+$/);
      expect(result.messages[index + 1]).toBe("assistant:answered");
    }
  }, 40_000);

  it("keeps the lock when the holder's connections are killed: another store cannot take the session", async () => {
    const applicationName = uniqueName("agentcore_holder");
    const holderPool = new pg.Pool({ connectionString: postgresUrl, application_name: applicationName, max: 2 });
    holderPool.on("error", () => {});
    const otherPool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
    try {
      const holder = new PostgresMemoryStore({ pool: holderPool, schema, tablePrefix: "kill_" });
      const other = new PostgresMemoryStore({ pool: otherPool, schema, tablePrefix: "kill_" });
      const release = await holder.lockSession("s", { timeoutMs: 0 });
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
        applicationName,
      ]);
      await expect(other.lockSession("s", { timeoutMs: 300 })).rejects.toSatisfy(SessionBusyError.isInstance);
      // The holder goes on writing on fresh connections, then releases; the other takes over.
      await holder.appendMessages("s", [{ id: "1", role: "user", content: "after the kill" }]);
      await release();
      await (await other.lockSession("s", { timeoutMs: 0 }))();
    } finally {
      await holderPool.end();
      await otherPool.end();
    }
  });

  it("fences a holder whose lease was taken over: its appends are refused with a SessionLockLostError, the new holder's are kept", async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 3 });
    try {
      const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "fence_" });
      const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "fence_" });
      await first.lockSession("s", { timeoutMs: 0 });
      await first.appendMessages("s", [{ id: "a1", role: "user", content: "first, while holding" }]);
      // The first holder stalls past its lease (a GC pause, a partition): the lease expires.
      await admin.query(
        `UPDATE "${schema}"."fence_session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
      );
      const releaseSecond = await second.lockSession("s", { timeoutMs: 0 });
      await second.appendMessages("s", [{ id: "b1", role: "user", content: "second" }]);
      const refused = first.appendMessages("s", [{ id: "a2", role: "assistant", content: "stale answer" }]);
      await expect(refused).rejects.toSatisfy(StoreError.isInstance);
      await expect(refused).rejects.toThrow(/lock on session "s" was lost/);
      const error = await refused.catch((caught: unknown) => caught);
      expect(SessionLockLostError.isInstance(error) && [error.name, error.sessionId, error.operation]).toEqual([
        "SessionLockLostError",
        "s",
        "appendMessages",
      ]);
      await expect(first.setMessages("s", [])).rejects.toSatisfy(SessionLockLostError.isInstance);
      await expect(first.setMessages("s", [])).rejects.toThrow(/lock on session "s" was lost/);
      expect((await second.getMessages("s")).map((message) => message.id)).toEqual(["a1", "b1"]);
      await releaseSecond();
    } finally {
      await pool.end();
    }
  });

  it("renews a held lease while it is held, so a long run keeps its session", async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
    try {
      const holder = new PostgresMemoryStore({ pool, schema, tablePrefix: "renew_", lockLeaseMs: 1000 });
      const other = new PostgresMemoryStore({ pool, schema, tablePrefix: "renew_", lockLeaseMs: 1000 });
      const release = await holder.lockSession("s", { timeoutMs: 0 });
      const expiry = async () =>
        Number(
          (
            await admin.query(
              `SELECT extract(epoch FROM expires_at) * 1000 AS at FROM "${schema}"."renew_session_locks"`,
            )
          ).rows[0].at,
        );
      const first = await expiry();
      // Wait for two renewals (each pushes the expiry later), however slow the machine is.
      let renewed = first;
      for (let seen = 0; seen < 2; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = await expiry();
        if (now > renewed) [renewed, seen] = [now, seen + 1];
      }
      expect(renewed).toBeGreaterThan(first);
      await expect(other.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
      await holder.appendMessages("s", [{ id: "1", role: "user", content: "still mine" }]);
      await release();
      expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}"."renew_session_locks"`)).rows).toEqual([
        { n: 0 },
      ]);
    } finally {
      await pool.end();
    }
  }, 20_000);
});
