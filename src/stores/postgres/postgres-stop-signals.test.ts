// Stops across two PostgresMemoryStore objects on two pools of the local PostgreSQL (LISTEN/NOTIFY).
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { Agent } from "../../agent/agent";
import { GatedModel } from "../../../test/helpers/gated-model";
import { stopRun } from "../../agent/stop-run";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { PostgresMemoryStore } from "./postgres-memory-store";
import { postgresStopChannel } from "./postgres-stop-signals";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_stop").toLowerCase();

if (available) {
  const running = new pg.Pool({ connectionString: postgresUrl, max: 4 });
  const stopping = new pg.Pool({ connectionString: postgresUrl, max: 4 });
  afterAll(async () => {
    await running.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all([running.end(), stopping.end()]);
  });
  let counter = 0;
  describeStopRun("PostgresMemoryStore", () => {
    const tablePrefix = `t${counter++}_`;
    return {
      running: new PostgresMemoryStore({ pool: running, schema, tablePrefix }),
      stopping: new PostgresMemoryStore({ pool: stopping, schema, tablePrefix }),
    };
  });

  it("listens on one connection of its own (not the pool's), kept for the store's next run", async () => {
    const tablePrefix = "listen_";
    const channel = postgresStopChannel(schema, tablePrefix);
    const listeners = async () =>
      Number(
        (
          await stopping.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE query = $1 AND datname = current_database()",
            [`LISTEN "${channel}"`],
          )
        ).rows[0].n,
      );
    const store = new PostgresMemoryStore({ pool: running, schema, tablePrefix });
    for (const sessionId of ["s-listen-1", "s-listen-2"]) {
      const model = new GatedModel([{ text: "Hello there, world." }], { open: 1 });
      const stream = new Agent({ model, memoryStore: store }).stream({ input: "Hi", sessionId });
      await model.atGate();
      expect(await listeners()).toBe(1);
      const stopper = new PostgresMemoryStore({ pool: stopping, schema, tablePrefix });
      await stopRun({ sessionId, memoryStore: stopper });
      expect((await stream.response).finishReason).toBe("stopped");
    }
    expect(await listeners()).toBe(1);
  });

  it("keeps a long schema and prefix's channel within 63 bytes, distinct", () => {
    const long = "s".repeat(60);
    expect(postgresStopChannel(long, "a_").length).toBeLessThanOrEqual(63);
    expect(postgresStopChannel(long, "a_")).not.toBe(postgresStopChannel(long, "b_"));
  });
} else {
  it.skip("needs the local PostgreSQL", () => {});
}
