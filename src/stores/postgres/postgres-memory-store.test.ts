import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { SessionBusyError } from "../../errors/session-busy-error";
import { testMemoryStore } from "../../testing/test-memory-store";
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
  testMemoryStore("PostgresMemoryStore", () => new PostgresMemoryStore({ pool, schema, tablePrefix: `t${counter++}_` }));

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
      await Promise.all(stores.map((store, index) => store.appendMessages(`s${index}`, [{ id: "1", role: "user", content: "x" }])));
      const { rows } = await pool.query(`SELECT version FROM "${schema}"."migrate_schema_version"`);
      expect(rows).toEqual([{ version: 1 }]);
      await stores[0]!.migrate(); // idempotent
      await pool.query(`UPDATE "${schema}"."migrate_schema_version" SET version = 99`);
      await expect(new PostgresMemoryStore({ pool, schema, tablePrefix }).migrate()).rejects.toThrow(/newer than this agentcore/);
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
        expect(own).toEqual(Array.from({ length: 15 }, (_, turn) => [`${writer}-${turn}-u`, `${writer}-${turn}-a`]).flat());
      }
    });

    it("locks a session with an advisory lock; a second locker waits or is refused", async () => {
      const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_" });
      const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "lock_" });
      const release = await first.lockSession("s", { timeoutMs: 0 });
      await expect(second.lockSession("s", { timeoutMs: 50 })).rejects.toSatisfy(SessionBusyError.isInstance);
      const waiting = second.lockSession("s", { timeoutMs: 5_000 });
      await release();
      await (await waiting)();
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
