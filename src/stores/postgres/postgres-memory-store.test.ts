import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { expectFactScopes } from "../__fixtures__/expect-fact-scopes";
import { expectLockWaitAborts } from "../__fixtures__/expect-lock-wait-aborts";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionBusyError } from "../../errors/session-busy-error";
import type { AgentMessage } from "../../messages/agent-message";
import { testMemoryStore } from "../../testing/test-memory-store";
import { backendOf } from "../backend-of";
import { emptyTotals } from "../usage-totals";
import { PostgresMemoryStore } from "./postgres-memory-store";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_test").toLowerCase();

if (available) {
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 12 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  let counter = 0;
  testMemoryStore(
    "PostgresMemoryStore",
    () => new PostgresMemoryStore({ pool, schema, tablePrefix: `t${counter++}_` }),
    { requireCapabilities: "all" },
  );

  describe("PostgresMemoryStore specifics", () => {
    it("validates schema and table prefix against a strict identifier pattern", () => {
      for (const bad of ['x"; DROP TABLE y; --', "Upper", "has-dash", "", "a".repeat(41), "1abc"]) {
        expect(() => new PostgresMemoryStore({ pool, schema: bad })).toThrow(/schema must match/);
        expect(() => new PostgresMemoryStore({ pool, tablePrefix: bad })).toThrow(/tablePrefix must match/);
      }
      expect(() => new PostgresMemoryStore({} as never)).toThrow(/needs \{ pool \}/);
    });

    it("migrates once under concurrent first use, records the schema version, and refuses a newer one", async () => {
      const tablePrefix = "migrate_";
      const stores = Array.from({ length: 5 }, () => new PostgresMemoryStore({ pool, schema, tablePrefix }));
      await Promise.all(
        stores.map((store, index) => store.appendMessages(`s${index}`, [{ id: "1", role: "user", content: "x" }])),
      );
      const { rows } = await pool.query(`SELECT version FROM "${schema}"."migrate_schema_version"`);
      expect(rows).toEqual([{ version: 6 }]);
      const indexes = await pool.query(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'migrate_summaries' ORDER BY indexname`,
        [schema],
      );
      expect(indexes.rows.map((row) => row.indexdef)).toContain(
        `CREATE INDEX migrate_summaries_session_seq ON ${schema}.migrate_summaries USING btree (session_id, seq)`,
      );
      await stores[0]!.migrate(); // idempotent
      await pool.query(`UPDATE "${schema}"."migrate_schema_version" SET version = 99`);
      await expect(new PostgresMemoryStore({ pool, schema, tablePrefix }).migrate()).rejects.toThrow(
        /newer than this agentcore/,
      );
    });

    it("keeps order by a per-session sequence across separate store instances appending at once", async () => {
      const tablePrefix = "order_";
      const stores = Array.from({ length: 6 }, () => new PostgresMemoryStore({ pool, schema, tablePrefix }));
      await stores[0]!.migrate();
      await Promise.all(
        stores.map(async (store, writer) => {
          for (let turn = 0; turn < 15; turn++) {
            await store.appendMessages("shared", [
              { id: `${writer}-${turn}-u`, role: "user", content: "u" },
              { id: `${writer}-${turn}-a`, role: "assistant", content: "a" },
            ]);
          }
        }),
      );
      const ids = (await stores[0]!.getMessages("shared")).map((message) => message.id!);
      expect(ids).toHaveLength(6 * 15 * 2);
      expect(new Set(ids).size).toBe(ids.length);
      for (let writer = 0; writer < 6; writer++) {
        const own = ids.filter((id) => id.startsWith(`${writer}-`));
        expect(own).toEqual(
          Array.from({ length: 15 }, (_, turn) => [`${writer}-${turn}-u`, `${writer}-${turn}-a`]).flat(),
        );
      }
    });

    it("migrates version 1 tables: message_count backfilled from the messages, getMessageTail reads it", async () => {
      const tablePrefix = "v1_";
      const t = (name: string) => `"${schema}"."${tablePrefix}${name}"`;
      // The schema and writes of the version 1 code, verbatim.
      await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await pool.query(`CREATE TABLE ${t("schema_version")} (id int PRIMARY KEY, version int NOT NULL)`);
      await pool.query(
        `CREATE TABLE ${t("sessions")} (session_id text PRIMARY KEY, created_at bigint NOT NULL, accessed_at bigint NOT NULL, agent_name text, tags text, next_seq bigint NOT NULL DEFAULT 0)`,
      );
      await pool.query(`CREATE INDEX "${tablePrefix}sessions_accessed_at" ON ${t("sessions")} (accessed_at)`);
      await pool.query(
        `CREATE TABLE ${t("messages")} (session_id text NOT NULL, seq bigint NOT NULL, message_id text, body text NOT NULL, PRIMARY KEY (session_id, seq), UNIQUE (session_id, message_id))`,
      );
      await pool.query(
        `CREATE TABLE ${t("facts")} (scope_id text NOT NULL, key text NOT NULL, body text NOT NULL, PRIMARY KEY (scope_id, key))`,
      );
      await pool.query(
        `CREATE TABLE ${t("summaries")} (session_id text NOT NULL, summary_id text NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY, body text NOT NULL, PRIMARY KEY (session_id, summary_id))`,
      );
      await pool.query(`INSERT INTO ${t("schema_version")} (id, version) VALUES (1, 1)`);
      const appendV1 = (sessionId: string, messages: AgentMessage[]) =>
        pool.query(
          `WITH session AS (
             INSERT INTO ${t("sessions")} AS s (session_id, created_at, accessed_at, next_seq) VALUES ($1, $2, $2, $3)
             ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at), next_seq = s.next_seq + $3
             RETURNING next_seq - $3 AS first_seq)
           INSERT INTO ${t("messages")} (session_id, seq, message_id, body)
           SELECT $1, session.first_seq + item.ord - 1, item.id, item.body
           FROM session, unnest($4::text[], $5::text[]) WITH ORDINALITY AS item(id, body, ord)
           ON CONFLICT (session_id, message_id) DO NOTHING`,
          [
            sessionId,
            Date.now(),
            messages.length,
            messages.map((message) => message.id ?? null),
            messages.map((message) => JSON.stringify(message)),
          ],
        );
      const messages = (session: string, count: number): AgentMessage[] =>
        Array.from({ length: count }, (_, index) => ({
          id: `${session}-${index}`,
          role: index % 2 ? "assistant" : "user",
          content: `${session} ${index}`,
        }));
      const big = messages("big", 250);
      for (let start = 0; start < big.length; start += 50) await appendV1("big", big.slice(start, start + 50));
      await appendV1("big", big.slice(0, 10)); // a retried append: skipped ids leave gaps in seq
      const small = messages("small", 3);
      await appendV1("small", small);
      await pool.query(`INSERT INTO ${t("sessions")} (session_id, created_at, accessed_at) VALUES ('empty', 1, 1)`);

      const store = new PostgresMemoryStore({ pool, schema, tablePrefix });
      expect(await store.getMessageTail("big", 4)).toEqual({ messages: big.slice(-4), total: 250 });
      expect((await pool.query(`SELECT version FROM ${t("schema_version")}`)).rows).toEqual([{ version: 6 }]);
      expect(
        (
          await pool.query(
            `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'v1_summaries_session_seq'`,
            [schema],
          )
        ).rowCount,
      ).toBe(1);
      expect(
        (await pool.query(`SELECT session_id, message_count::int AS count FROM ${t("sessions")} ORDER BY session_id`))
          .rows,
      ).toEqual([
        { session_id: "big", count: 250 },
        { session_id: "empty", count: 0 },
        { session_id: "small", count: 3 },
      ]);
      expect(await store.getMessageTail("small", 10)).toEqual({ messages: small, total: 3 });
      expect(await store.getMessageTail("empty", 10)).toEqual({ messages: [], total: 0 });
      expect((await store.getSession("big"))?.messageCount).toBe(250);
      await store.appendMessages("big", messages("more", 2));
      expect((await store.getMessageTail("big", 1)).total).toBe(252);
      // Another store on the upgraded tables migrates nothing more.
      expect((await new PostgresMemoryStore({ pool, schema, tablePrefix }).getMessageTail("big", 0)).total).toBe(252);
      // A process still running version 1 during a rolling upgrade: its writes are counted too
      // (the triggers count rows, not callers), retried ids included, and a version-1 replace
      // (upsert, delete, insert) and clear as well.
      await Promise.all([
        appendV1("big", messages("old", 4)),
        store.appendMessages("big", messages("new", 4)),
        appendV1("big", messages("old", 4)),
      ]);
      expect((await store.getMessageTail("big", 0)).total).toBe(260);
      expect((await store.getMessageTail("big", 0)).total).toBe((await store.getMessages("big")).length);
      await pool.query(`DELETE FROM ${t("messages")} WHERE session_id = 'small'`);
      await appendV1("small", messages("small", 2));
      expect(await store.getMessageTail("small", 10)).toEqual({ messages: messages("small", 2), total: 2 });
      // Version 5: the sessions of version 1 stay ownerless; a new one gets its owner, listed through the index.
      expect((await store.getSession("big"))?.userId).toBeUndefined();
      await backendOf(store).claimSession("owned", "ada");
      expect((await store.listSessions({ userId: "ada" })).sessions.map((entry) => entry.sessionId)).toEqual(["owned"]);
      expect(
        (
          await pool.query(
            `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'v1_sessions_user_accessed'`,
            [schema],
          )
        ).rows[0]?.indexdef,
      ).toContain("(user_id, accessed_at, session_id COLLATE");
      // Version 6: old sessions have zero totals and no title, metadata or preview; an append of this
      // version records its usage and preview, a version-1 append during a rolling upgrade only counts.
      expect(await store.getSession("big")).toMatchObject({ usage: emptyTotals(), messageCount: 260 });
      expect(await store.getSession("small")).not.toHaveProperty("preview");
      const usage = { ...emptyTotals(), inputTokens: 7, totalTokens: 9, modelCalls: 1, cost: 0.5 };
      await store.appendMessages("owned", messages("owned", 2), { usage });
      await appendV1("owned", messages("v1", 2));
      expect(await store.getSession("owned")).toMatchObject({ messageCount: 4, usage, preview: "owned 1" });
      expect(await store.getUsage({ userId: "ada" })).toEqual(usage);
      expect(await store.getUsage({ userId: "ada", since: Date.now() })).toEqual(usage);
      await store.updateSession("big", { title: "Old", metadata: { kept: true } });
      expect(await store.getSession("big")).toMatchObject({ title: "Old", metadata: { kept: true } });
      expect(await store.getMessageRange("big", 248, 252)).toEqual((await store.getMessages("big")).slice(248, 252));
    });

    it("counts exactly under concurrent appends from several store instances, and not for ids already stored", async () => {
      const tablePrefix = "count_";
      const stores = Array.from({ length: 6 }, () => new PostgresMemoryStore({ pool, schema, tablePrefix }));
      await stores[0]!.migrate();
      const turn = (writer: number, index: number): AgentMessage[] => [
        { id: `${writer}-${index}-u`, role: "user", content: "u" },
        { id: `${writer}-${index}-a`, role: "assistant", content: "a" },
      ];
      await Promise.all(
        stores.map(async (store, writer) => {
          for (let index = 0; index < 20; index++) {
            await store.appendMessages("s", turn(writer, index));
            // Every writer retries a turn another writer may be appending right now.
            await store.appendMessages("s", turn((writer + 1) % stores.length, index));
          }
        }),
      );
      const rows = async () =>
        Number(
          (await pool.query(`SELECT count(*) AS n FROM "${schema}"."${tablePrefix}messages" WHERE session_id = 's'`))
            .rows[0].n,
        );
      expect(await rows()).toBe(6 * 20 * 2);
      expect((await stores[1]!.getMessageTail("s", 3)).total).toBe(await rows());
      // Retried appends (whole, partial, repeated within one call) change nothing.
      await stores[2]!.appendMessages("s", [...turn(0, 0), ...turn(5, 19)]);
      await stores[3]!.appendMessages("s", [
        ...turn(1, 5),
        { id: "new", role: "user", content: "n" },
        { id: "new", role: "user", content: "n" },
      ]);
      const tail = await stores[0]!.getMessageTail("s", 2);
      expect(tail.total).toBe(6 * 20 * 2 + 1);
      expect(tail.total).toBe(await rows());
      expect(tail.messages.at(-1)?.id).toBe("new");
      expect((await stores[0]!.getSession("s"))?.messageCount).toBe(await rows());
    });

    it("reads the tail and the count as one snapshot while appends and replacements run", async () => {
      const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "snapshot_" });
      let writing = true;
      const writer = (async () => {
        for (let index = 0; index < 60; index++) {
          if (index % 10 === 9)
            await store.setMessages("s", [{ id: `r${index}`, role: "user", content: String(index) }]);
          else await store.appendMessages("s", [{ id: `m${index}`, role: "user", content: String(index) }]);
        }
        writing = false;
      })();
      let reads = 0;
      while (writing || reads === 0) {
        const tail = await store.getMessageTail("s", Infinity);
        // The whole history and its count come from one snapshot, so they always agree.
        expect(tail.messages).toHaveLength(tail.total);
        reads++;
      }
      await writer;
      expect(reads).toBeGreaterThan(0);
    });

    it("lists the scopes that hold facts", async () => {
      await expectFactScopes(new PostgresMemoryStore({ pool, schema, tablePrefix: "scopes_" }));
    });

    it("locks a session with a lease; a second locker waits or is refused", async () => {
      const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_" });
      const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_" });
      const release = await first.lockSession("s", { timeoutMs: 0 });
      await expect(second.lockSession("s", { timeoutMs: 50 })).rejects.toSatisfy(SessionBusyError.isInstance);
      const waiting = second.lockSession("s", { timeoutMs: 5_000 });
      await release();
      await (await waiting)();
    });

    it("stops waiting for a session lease held by another store when the signal aborts", async () => {
      const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_abort_" });
      const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_abort_" });
      await expectLockWaitAborts(first, second);
    });

    it("raises a CorruptStoreError naming the session when its metadata is corrupt (getSession, entries)", async () => {
      const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "corrupt_meta_" });
      await store.updateSession("s", { tags: ["a"] });
      await pool.query(`UPDATE "${schema}"."corrupt_meta_sessions" SET tags = '{oops'`);
      for (const read of [() => store.getSession("s"), () => store.entries()]) {
        const error = await read().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(CorruptStoreError.isInstance(error) && error.sessionId === "s").toBe(true);
        expect((error as Error).message).toMatch(/session "s"/);
      }
    });

    it("refuses ids with lone surrogates, so x\\ud800, x\\udfff and x\\ufffd are never merged into one session", async () => {
      const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "surrogates_" });
      for (const id of ["x\ud800", "x\udfff", "bob\ud800"]) {
        await expect(store.appendMessages(id, [{ id: "1", role: "user", content: id }])).rejects.toSatisfy(
          InvalidArgumentError.isInstance,
        );
        await expect(
          store.setFact(`user:${id}`, { key: "k", value: "v", createdAt: 1, updatedAt: 1 }),
        ).rejects.toSatisfy(InvalidArgumentError.isInstance);
        await expect(store.lockSession(id, { timeoutMs: 0 })).rejects.toSatisfy(InvalidArgumentError.isInstance);
      }
      await store.appendMessages("x\ufffd", [{ id: "1", role: "user", content: "replacement character" }]);
      expect((await store.entries()).map((entry) => [entry.sessionId, entry.messageCount])).toEqual([["x\ufffd", 1]]);
    });

    it("refuses unknown options, naming the right one (tableName is tablePrefix)", () => {
      expect(() => new PostgresMemoryStore({ pool, tableName: "mine_" } as never)).toThrow(
        /no option "tableName": use "tablePrefix"/,
      );
      expect(() => new PostgresMemoryStore({ pool, schemaName: "x" } as never)).toThrow(
        /no option "schemaName". Its options are: pool, schema, tablePrefix, lockLeaseMs/,
      );
      expect(() => new PostgresMemoryStore({ pool, lockLeaseMs: 10 })).toThrow(
        /lockLeaseMs must be an integer of at least 1000/,
      );
    });

    it("raises a StoreError naming the record when a stored body is bad", async () => {
      const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "bad_" });
      await store.appendMessages("s", [{ id: "1", role: "user", content: "x" }]);
      await pool.query(`UPDATE "${schema}"."bad_messages" SET body = '{oops'`);
      await expect(store.getMessages("s")).rejects.toThrow(/message 0 of session "s"/);
    });
  });
} else {
  describe.skip("PostgresMemoryStore (PostgreSQL not reachable)", () => {
    it("skipped", () => {});
  });
}
