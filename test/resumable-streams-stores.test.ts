// Resumable UI streams on every built-in store (issue 42, items 1 and 3; docs/resumable-streams.md):
// a client that reconnects mid-answer, on a second store object where the store is shared (another
// app server), gets the answer replayed and followed live, folded by the AI SDK's own
// `readUIMessageStream` into exactly the stored message; after the end, within the TTL, it is
// replayed once; with nothing running the answer is 204; the page loaded mid-answer holds the stored
// user message and no empty assistant message.
import { join } from "node:path";
import { Redis as UpstashRedis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { backendOf } from "../src/stores/backend-of";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { UpstashRedisMemoryStore } from "../src/stores/upstash/upstash-redis-memory-store";
import { resumeStream } from "../src/streaming/resume-stream";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import { ANSWER, foldResponse, recordingEnded, startHeldTurn } from "./helpers/resumable-turns";
import { openStoreServers } from "./helpers/store-servers";
import { startUpstashRestBridge } from "./helpers/upstash-rest-bridge";

const { directory, redisPrefix, schema, postgres, redis } = await openStoreServers("agentcore-resumable", {
  postgresConnections: 6,
});
const bridge = redis ? await startUpstashRestBridge() : undefined;
afterAll(async () => {
  await bridge?.close();
});
const upstash =
  bridge && new UpstashRedis({ url: bridge.url, token: bridge.token, retry: false, enableTelemetry: false });

/** A store, and a second object on the same data (another app server where the store is shared). */
type StorePair = () => { first: MemoryStore; second: MemoryStore };
let counter = 0;
const stores: [string, StorePair | undefined][] = [
  [
    "InMemoryStore",
    () => {
      const store = new InMemoryStore();
      return { first: store, second: store };
    },
  ],
  [
    "FileMemoryStore",
    () => {
      const path = join(directory, `${counter++}.json`);
      return { first: new FileMemoryStore(path), second: new FileMemoryStore(path) };
    },
  ],
  [
    "SqliteMemoryStore",
    () => {
      const path = join(directory, `${counter++}.db`);
      return { first: new SqliteMemoryStore(path), second: new SqliteMemoryStore(path) };
    },
  ],
  [
    "RedisMemoryStore",
    redis &&
      (() => {
        const prefix = `${redisPrefix}${counter++}:`;
        return {
          first: new RedisMemoryStore({ client: redis, prefix }),
          second: new RedisMemoryStore({ client: redis, prefix }),
        };
      }),
  ],
  [
    "UpstashRedisMemoryStore",
    upstash &&
      (() => {
        const prefix = `${redisPrefix}u${counter++}:`;
        return {
          first: new UpstashRedisMemoryStore({ client: upstash, prefix }),
          second: new UpstashRedisMemoryStore({ client: upstash, prefix }),
        };
      }),
  ],
  [
    "PostgresMemoryStore",
    postgres &&
      (() => {
        const tablePrefix = `r${counter++}_`;
        return {
          first: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
          second: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
        };
      }),
  ],
];

/**
 * The stored answer as a page shows it: the last UI message of the session's history, its metadata
 * (model, usage, ids, timestamps) included: the stream sends the same in its `message-metadata` chunks.
 */
async function storedAnswer(store: MemoryStore, sessionId: string) {
  const messages = convertToUIMessages(await store.getMessages(sessionId));
  return { messages, answer: messages.at(-1) };
}

describe.each(stores)("resumable streams on %s", (name, pair) => {
  it.skipIf(!pair)(
    "a reconnect mid-answer on a second store object replays and follows: the stored message, once",
    async () => {
      const { first, second } = pair!();
      const held = await startHeldTurn(first, "s1");
      // A page loaded now: the stored user message, no assistant message (empty or not).
      const midway = convertToUIMessages(await second.getMessages("s1"));
      expect(midway.map((message) => [message.id, message.role])).toEqual([["u1", "user"]]);

      const resumed = await resumeStream({ sessionId: "s1", memoryStore: second });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      const folding = foldResponse(resumed);
      held.open();
      const { message, chunks } = await folding;
      await held.result.response;

      const { messages, answer } = await storedAnswer(second, "s1");
      expect(messages.map((entry) => entry.role)).toEqual(["user", "assistant"]);
      expect(message).toEqual(answer);
      // The replay starts with the answer's own id, so useChat replaces a message it shows under it.
      expect(chunks[0]).toEqual({ type: "start", messageId: answer!.id });
      expect(chunks.filter((chunk) => chunk.type === "start")).toHaveLength(1);
      expect(chunks.filter((chunk) => chunk.type === "finish")).toHaveLength(1);
      const text = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
      expect(text).toBe(ANSWER);
      expect(held.mock.calls).toHaveLength(1);
    },
  );

  it.skipIf(!pair)(
    "after the end, within the TTL, a reconnect replays the answer once; each reconnect once",
    async () => {
      const { first, second } = pair!();
      const held = await startHeldTurn(first, "s2");
      held.open();
      await held.result.response;
      const { answer } = await storedAnswer(second, "s2");
      for (let attempt = 0; attempt < 2; attempt++) {
        const { message, chunks } = await foldResponse(await resumeStream({ sessionId: "s2", memoryStore: second }));
        expect(message).toEqual(answer);
        expect(
          chunks
            .filter((chunk) => chunk.type === "text-delta")
            .map((chunk) => chunk.delta)
            .join(""),
        ).toBe(ANSWER);
      }
    },
  );

  it.skipIf(!pair)("answers 204 when nothing ran on the session, and for a turn that was not resumable", async () => {
    const { first, second } = pair!();
    expect((await resumeStream({ sessionId: "never", memoryStore: second })).status).toBe(204);
    const held = await startHeldTurn(first, "s3", { resumable: false });
    expect((await resumeStream({ sessionId: "s3", memoryStore: second })).status).toBe(204);
    held.open();
    await held.result.response;
    expect((await resumeStream({ sessionId: "s3", memoryStore: second })).status).toBe(204);
  });

  it.skipIf(!pair)("past maxBytes the stream stops recording: 204, and the answer is still stored whole", async () => {
    const { first, second } = pair!();
    const held = await startHeldTurn(first, "s4", { resumable: { maxBytes: 200 }, after: 40 });
    held.open();
    await held.result.response;
    // The recording may trail the run (its writes in flight): wait for it to stop.
    await recordingEnded(first, "s4");
    expect((await resumeStream({ sessionId: "s4", memoryStore: second })).status).toBe(204);
    const { answer } = await storedAnswer(second, "s4");
    expect(answer?.parts).toContainEqual(expect.objectContaining({ type: "text", text: ANSWER }));
    expect(backendOf(second).streamLog.scope).toBe(
      name.includes("Redis") || name.includes("Postgres") ? "store" : "process",
    );
  });
});
