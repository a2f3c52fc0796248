// A child process for the PostgreSQL fault tests (bundled by test/helpers/bundle.ts). Runs
// agent turns on a PostgresMemoryStore and, while the model is answering (the session lock
// held), terminates every connection of the store's pool with pg_terminate_backend. Prints one
// JSON line { outcomes, messages } and exits 0; an uncaught exception exits 1.
//   argv[2]: JSON { url, schema, turns }
import pg from "pg";
import { Agent } from "../../src/agent/agent";
import { AgentCoreError } from "../../src/errors/agent-core-error";
import { PostgresMemoryStore } from "../../src/stores/postgres/postgres-memory-store";
import { MockLanguageModel } from "../../src/testing/mock-language-model";

const { url, schema, turns } = JSON.parse(process.argv[2] ?? "{}") as { url: string; schema: string; turns: number };
const applicationName = `agentcore_kill_${process.pid}`;

process.on("uncaughtException", (error) => {
  process.stderr.write(
    `uncaughtException: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

async function killStoreConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pg_terminate_backend(pid) AS killed, pid FROM pg_stat_activity WHERE application_name = $1",
    [applicationName],
  );
  await admin.end();
  return rows.length;
}

async function main(): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, application_name: applicationName, max: 3 });
  // pg's own rule: a pool needs an 'error' listener for its idle clients.
  pool.on("error", () => {});
  const store = new PostgresMemoryStore({ pool, schema });
  await store.migrate();
  let killed = 0;
  const model = new MockLanguageModel({
    responses: async () => {
      killed += await killStoreConnections();
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the 'error' events arrive
      return { text: "answered" };
    },
  });
  const agent = new Agent({ model, memoryStore: store });
  const outcomes: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    try {
      await agent.run({ input: `question ${turn}`, sessionId: "killed" });
      outcomes.push("completed");
    } catch (error) {
      outcomes.push(AgentCoreError.isInstance(error) ? `typed ${(error as Error).name}` : `untyped ${String(error)}`);
    }
  }
  const messages = (await store.getMessages("killed")).map(
    (message) => `${message.role}:${typeof message.content === "string" ? message.content : "?"}`,
  );
  await pool.end();
  process.stdout.write(`${JSON.stringify({ outcomes, messages, killed })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
