import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../messages/agent-message";
import { emptyTotals } from "../usage-totals";
import { SqliteMemoryStore } from "./sqlite-memory-store";

const directory = mkdtempSync(join(tmpdir(), "agentcore-sqlite-schema-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The tables of schema version 4 (the code before threads), verbatim as it left them. */
const version4 = `
  CREATE TABLE "agentcore_schema_version" (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
  CREATE TABLE "agentcore_sessions" (session_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, accessed_at INTEGER NOT NULL, agent_name TEXT, tags TEXT, message_count INTEGER NOT NULL DEFAULT 0, user_id TEXT) WITHOUT ROWID;
  CREATE INDEX "agentcore_sessions_accessed_at" ON "agentcore_sessions" (accessed_at);
  CREATE TABLE "agentcore_messages" (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT, body TEXT NOT NULL, UNIQUE (session_id, message_id));
  CREATE INDEX "agentcore_messages_session" ON "agentcore_messages" (session_id, seq);
  CREATE TABLE "agentcore_facts" (scope_id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (scope_id, key)) WITHOUT ROWID;
  CREATE TABLE "agentcore_summaries" (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, summary_id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (session_id, summary_id));
  CREATE TABLE "agentcore_locks" (session_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX "agentcore_summaries_session" ON "agentcore_summaries" (session_id, seq);
  CREATE INDEX "agentcore_sessions_user" ON "agentcore_sessions" (user_id, accessed_at, session_id) WHERE user_id IS NOT NULL;
  CREATE TABLE "agentcore_context_reports" (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, report_id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (session_id, report_id));
  CREATE INDEX "agentcore_context_reports_session" ON "agentcore_context_reports" (session_id, seq);
  INSERT INTO "agentcore_schema_version" (id, version) VALUES (1, 4);
`;

function messages(session: string, count: number): AgentMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${session}-${index}`,
    role: index % 2 ? "assistant" : "user",
    content: `${session} ${index}`,
  }));
}

describe("SqliteMemoryStore schema version 5 (threads)", () => {
  it("upgrades a version 4 database in place: data kept, positions backfilled per session, ledger at zero", async () => {
    const file = join(directory, "v4.db");
    const raw = new BetterSqlite3(file);
    raw.exec(version4);
    const written = { owned: messages("owned", 5), free: messages("free", 3) };
    raw
      .prepare(
        `INSERT INTO "agentcore_sessions" VALUES (?, 1, 2, NULL, '["a"]', 5, 'ada'), (?, 1, 3, NULL, NULL, 3, NULL)`,
      )
      .run("owned", "free");
    const insert = raw.prepare(`INSERT INTO "agentcore_messages" (session_id, message_id, body) VALUES (?, ?, ?)`);
    // The sessions' messages interleave, as concurrent sessions' do.
    for (let index = 0; index < 5; index++)
      for (const [session, list] of Object.entries(written))
        if (list[index]) insert.run(session, list[index]!.id, JSON.stringify(list[index]));
    raw
      .prepare(`INSERT INTO "agentcore_facts" VALUES ('session:owned', 'topic', ?), ('user:ada', 'name', ?)`)
      .run(
        JSON.stringify({ key: "topic", value: "x", createdAt: 1, updatedAt: 1 }),
        JSON.stringify({ key: "name", value: "Ada", createdAt: 1, updatedAt: 1 }),
      );
    raw.close();

    const store = new SqliteMemoryStore(file);
    expect(store.database.prepare(`SELECT version FROM "agentcore_schema_version"`).get()).toEqual({ version: 5 });
    expect(await store.getMessages("owned")).toEqual(written.owned);
    expect(await store.getMessageRange("owned", 1, 4)).toEqual(written.owned.slice(1, 4));
    expect(await store.getMessageRange("free", 2, 10)).toEqual(written.free.slice(2));
    const entry = await store.getSession("owned");
    expect(entry).toEqual({
      sessionId: "owned",
      createdAt: 1,
      accessedAt: 2,
      messageCount: 5,
      userId: "ada",
      tags: ["a"],
      usage: emptyTotals(),
    });
    // A range is read by the (session_id, position) index.
    const plan = store.database
      .prepare(
        `EXPLAIN QUERY PLAN SELECT body FROM "agentcore_messages" WHERE session_id = ? AND position >= ? AND position < ? ORDER BY position`,
      )
      .all("owned", 0, 2) as { detail: string }[];
    expect(plan.map((row) => row.detail).join(" ")).toContain("agentcore_messages_position");
    // New writes carry on from the backfilled positions, with the ledger and preview.
    const usage = { ...emptyTotals(), inputTokens: 10, outputTokens: 5, totalTokens: 15, modelCalls: 1, cost: 0.5 };
    await store.appendMessages("owned", messages("next", 2), { usage });
    expect(await store.getMessageRange("owned", 4, 7)).toEqual([written.owned[4], ...messages("next", 2)]);
    expect(await store.getUsage({ userId: "ada" })).toEqual(usage);
    expect((await store.getSession("owned"))?.preview).toBe("next 1");
    store.close();

    // Opening again migrates nothing more; the user's data deletes whole.
    const again = new SqliteMemoryStore(file);
    expect(await again.getMessageRange("owned", 0, 2)).toEqual(written.owned.slice(0, 2));
    expect(await again.deleteUserData("ada")).toEqual({ sessions: 1, messages: 7, facts: 2 });
    expect(await again.getMessages("free")).toEqual(written.free);
    again.close();
  });
});
