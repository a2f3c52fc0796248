import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockEmbeddingModel } from "../testing/mock-embedding-model";
import { testMemoryProvider } from "../testing/test-memory-provider";
import { PgVectorSemanticIndex, type SqlClient } from "./pgvector-semantic-index";
import { SemanticMemoryProvider } from "./semantic-memory-provider";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";

// PostgreSQL 18 with pgvector, in process (PGlite). Booting it takes seconds on a busy machine.
let database: PGlite | undefined;
let tables = 0;
const client: SqlClient = {
  query: (text, params) => database!.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>,
};

beforeAll(async () => {
  database = await PGlite.create({ extensions: { vector } });
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const index = (options: { dimensions?: number } = {}) =>
  new PgVectorSemanticIndex({ client, table: `memories_${++tables}`, ...options });

testMemoryProvider(
  "SemanticMemoryProvider on pgvector (full-text ranking)",
  () => new SemanticMemoryProvider({ index: index() }),
  { scope: "session" },
);
testMemoryProvider(
  "SemanticMemoryProvider on pgvector (hybrid, user scope, HNSW)",
  () =>
    new SemanticMemoryProvider({ index: index({ dimensions: 64 }), embedder: new MockEmbeddingModel(), scope: "user" }),
  { scope: "user" },
);

describe("PgVectorSemanticIndex", () => {
  it("ranks by cosine distance and keeps the session's order for neighbours", async () => {
    const provider = new SemanticMemoryProvider({
      index: index({ dimensions: 64 }),
      embedder: new MockEmbeddingModel(),
      ranking: "vector",
      neighbours: 1,
    });
    await provider.write(
      [
        { id: "m1", role: "user", content: "Where did you park?" },
        { id: "m2", role: "assistant", content: "Level three of the garage, near the lifts." },
        { id: "m3", role: "user", content: "Thanks, see you at dinner." },
      ],
      { sessionId: "s" },
    );
    const [record] = await provider.read({ sessionId: "s", query: "the garage lifts", limit: 1 });
    expect(record!.messageId).toBe("m2");
    expect(record!.content).toBe(
      "Where did you park?\nLevel three of the garage, near the lifts.\nThanks, see you at dinner.",
    );
  });

  it("replaces a message written again, in place, and deletes by scope", async () => {
    const table = index();
    const provider = new SemanticMemoryProvider({ index: table, neighbours: { before: 0, after: 1 } });
    await provider.write(
      [
        { id: "m1", role: "user", content: "draft answer", timestamp: 1 },
        { id: "m2", role: "user", content: "after", timestamp: 2 },
      ],
      { sessionId: "s", tags: ["x"] },
    );
    await provider.write([{ id: "m1", role: "user", content: "final answer", timestamp: 1 }], {
      sessionId: "s",
      tags: ["y"],
    });
    expect((await provider.read({ sessionId: "s", query: "final answer", limit: 1 }))[0]!.content).toBe(
      "final answer\nafter",
    );
    expect((await provider.entries({ sessionId: "s" })).map((entry) => [entry.content, entry.tags])).toEqual([
      ["final answer", ["y"]],
      ["after", ["x"]],
    ]);
    await provider.clear({ sessionId: "s" });
    expect(await provider.entries()).toEqual([]);
  });

  it("filters by after/before and ranks by a query's period as the in-memory index does", async () => {
    const at = (day: number) => Date.UTC(2022, 2, day, 12);
    const chat = [
      { id: "a", role: "user" as const, content: "Caroline: Work has been hectic lately.", timestamp: at(15) },
      {
        id: "b",
        role: "user" as const,
        content: "Caroline: Yesterday I went bowling with my cousins!",
        timestamp: at(17),
      },
      { id: "c", role: "user" as const, content: "Melanie: Painting again, a sunset this time.", timestamp: at(18) },
    ];
    for (const provider of [
      new SemanticMemoryProvider({ index: index() }),
      new SemanticMemoryProvider({ index: index({ dimensions: 64 }), embedder: new MockEmbeddingModel() }),
      new SemanticMemoryProvider({ index: new InMemorySemanticIndex() }),
    ]) {
      await provider.write(chat, { sessionId: "s" });
      const window = { after: Date.UTC(2022, 2, 16), before: Date.UTC(2022, 2, 17) };
      expect((await provider.read({ sessionId: "s", limit: 10, ...window })).map((record) => record.messageId)).toEqual(
        ["b"],
      );
      expect(await provider.read({ sessionId: "s", limit: 10, after: at(19) })).toEqual([]);
      expect(
        (await provider.read({ sessionId: "s", limit: 10, before: Date.UTC(2022, 2, 16) })).map(
          (record) => record.messageId,
        ),
      ).toEqual(["a"]);
      const [first] = await provider.read({ sessionId: "s", query: "What did Caroline do on March 16, 2022?" });
      expect(first!.messageId).toBe("b");
    }
  });

  it("answers a time window through an indexed range column, filled in on tables made before it", async () => {
    const table = `memories_${++tables}`;
    // The table as the previous version made it (no `times`), with a row mentioning 16 March 2022.
    await database!.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    await database!.query(
      `CREATE TABLE ${table} (position bigserial, id text PRIMARY KEY, session_id text NOT NULL, user_id text,
         message_id text, agent_name text, tags text[] NOT NULL DEFAULT '{}', role text, content text NOT NULL,
         created_at double precision NOT NULL, embedding vector, mentions double precision[], UNIQUE (session_id, message_id))`,
    );
    const [day16, day17] = [Date.UTC(2022, 2, 16), Date.UTC(2022, 2, 17)];
    await database!.query(
      `INSERT INTO ${table} (id, session_id, message_id, content, created_at, mentions) VALUES
         ('old', 's', 'a', 'Yesterday I went bowling.', $1, $2), ('plain', 's', 'b', 'Hello.', $3, NULL)`,
      [day17 + 3_600_000, [day16, day17], day17 + 7_200_000],
    );
    const migrated = new PgVectorSemanticIndex({ client, table });
    expect((await migrated.list({ after: day16, before: day17 })).map((document) => document.id)).toEqual(["old"]);
    expect((await migrated.list({ after: day17, before: day17 + 86_400_000 })).map((document) => document.id)).toEqual([
      "old",
      "plain",
    ]);
    await migrated.add([
      {
        id: "new",
        content: "Last week was busy.",
        sessionId: "s",
        messageId: "c",
        createdAt: day17 + 8 * 86_400_000,
        mentions: [day16 - 2 * 86_400_000, day16 + 5 * 86_400_000],
        tags: [],
      },
    ]);
    expect((await migrated.list({ after: day16, before: day17 })).map((document) => document.id)).toEqual([
      "old",
      "new",
    ]);
    // The window is one overlap test on `times`, which its GiST index answers.
    await database!.query("SET enable_seqscan = off");
    try {
      const plan = await database!.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT id FROM ${table} m WHERE m.times && numrange($1::numeric, $2::numeric, '[)')`,
        [String(day16), String(day17)],
      );
      expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain(`${table}_times_idx`);
    } finally {
      await database!.query("SET enable_seqscan = on");
    }
  });

  it("rejects unsafe identifiers and reports SQL failures as MemoryProviderError", async () => {
    expect(() => new PgVectorSemanticIndex({ client, table: "x; DROP TABLE y" })).toThrow(/identifier/);
    const broken = new PgVectorSemanticIndex({
      client: { query: async () => Promise.reject(new Error("connection refused")) },
    });
    await expect(broken.list({})).rejects.toMatchObject({
      name: "MemoryProviderError",
      message: expect.stringContaining("pgvector extension"),
    });
  });
});
