// Mastra on PostgreSQL in bench/load.bench.ts: a turn as Mastra's Agent does it.
import type pg from "pg";
import { Memory } from "@mastra/memory";
import { PostgresStore } from "@mastra/pg";
import { cloneRows } from "./clone-rows";
import {
  BASE_TIME,
  REPLY,
  RESOURCE,
  seedRole,
  seedText,
  turnText,
  WINDOW,
  FILLER_MESSAGES,
  type CellConfig,
  type ContenderImplementation,
  type OpenContender,
  type StoredTranscript,
} from "./contenders";

function mastraStorage(config: CellConfig): PostgresStore {
  return new PostgresStore({
    connectionString: config.postgresUrl,
    schemaName: config.namespace,
    max: config.poolSize,
  });
}

const mastraMessage = (threadId: string, id: string, createdAt: number, role: "user" | "assistant", text: string) => ({
  id,
  threadId,
  resourceId: RESOURCE,
  role,
  type: "text",
  createdAt: new Date(createdAt),
  content: { format: 2 as const, parts: [{ type: "text" as const, text }] },
});

export const mastra: ContenderImplementation = {
  async seed(config: CellConfig, active: string[], filler: string[], pool: pg.Pool): Promise<void> {
    const storage = mastraStorage(config);
    await storage.init();
    const memory = new Memory({
      storage,
      options: {
        lastMessages: WINDOW,
        semanticRecall: false,
        workingMemory: { enabled: false },
        threads: { generateTitle: false },
      },
    });
    // One thread of each kind written through Mastra's API, copied in SQL to every session of that kind.
    for (const [template, size] of [
      ["active-template", config.history],
      ["filler-template", FILLER_MESSAGES],
    ] as const) {
      await memory.createThread({ threadId: template, resourceId: RESOURCE });
      for (let start = 0; start < size; start += 500) {
        const batch = Array.from({ length: Math.min(500, size - start) }, (_, offset) =>
          mastraMessage(
            template,
            `${template}-m${start + offset}`,
            BASE_TIME + start + offset,
            seedRole(start + offset),
            seedText(start + offset),
          ),
        );
        await memory.saveMessages({ messages: batch, format: "v2" });
      }
    }
    await storage.close();
    const schema = `"${config.namespace}"`;
    for (const [template, ids] of [
      ["active-template", active],
      ["filler-template", filler],
    ] as const) {
      await cloneRows(pool, `${schema}."mastra_threads"`, "id", template, ids);
      await cloneRows(pool, `${schema}."mastra_messages"`, "thread_id", template, ids, {}, ["id"]);
      await pool.query(`DELETE FROM ${schema}."mastra_messages" WHERE thread_id = $1`, [template]);
      await pool.query(`DELETE FROM ${schema}."mastra_threads" WHERE id = $1`, [template]);
    }
  },
  async open(config: CellConfig): Promise<OpenContender> {
    const storage = mastraStorage(config);
    await storage.init();
    const memory = new Memory({
      storage,
      options: {
        lastMessages: WINDOW,
        semanticRecall: false,
        workingMemory: { enabled: false },
        threads: { generateTitle: false },
      },
    });
    return {
      async turn(sessionId, turn) {
        // As Mastra's Agent does per turn: the last N messages, then save the new user message and the answer.
        const { messagesV2 } = await memory.rememberMessages({
          threadId: sessionId,
          resourceId: RESOURCE,
          config: { lastMessages: WINDOW },
        });
        if (messagesV2.length !== WINDOW)
          throw new Error(`Mastra remembered ${messagesV2.length} messages, expected ${WINDOW}`);
        const now = Date.now();
        await memory.saveMessages({
          messages: [
            mastraMessage(sessionId, `${sessionId}-t${turn}u`, now, "user", turnText(sessionId, turn)),
            mastraMessage(sessionId, `${sessionId}-t${turn}a`, now + 1, "assistant", REPLY),
          ],
          format: "v2",
        });
      },
      close: () => storage.close(),
    };
  },
  async read(config: CellConfig, sessionId: string, pool: pg.Pool): Promise<StoredTranscript> {
    // Straight from the table (Mastra's getMessages returns at most 40 by default).
    const { rows } = await pool.query<{ role: string; content: string }>(
      `SELECT role, content FROM "${config.namespace}"."mastra_messages" WHERE thread_id = $1 ORDER BY "createdAt", id`,
      [sessionId],
    );
    return rows.map((row) => ({
      role: row.role,
      text: (JSON.parse(row.content) as { parts: { text: string }[] }).parts.map((part) => part.text).join(""),
    }));
  },
};
