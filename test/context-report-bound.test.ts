// Context reports stay within MAX_CONTEXT_REPORTS at every moment under concurrent saves, on
// every store: 40 saves at once to a session already at the bound, from several store objects
// (several PostgreSQL connections, Redis/Upstash clients, handles on one file), repeated, while a
// reader counts the session's reports. A save must not fail either (PostgreSQL once answered one
// with a deadlock, 40P01).
import { Redis as UpstashRedis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { MessageNotFoundError } from "../src/errors/message-not-found-error";
import { MAX_CONTEXT_REPORTS, type ContextReport } from "../src/stores/context-report";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { UpstashRedisMemoryStore } from "../src/stores/upstash/upstash-redis-memory-store";
import { openStoreServers, persistentStores } from "./helpers/store-servers";
import { startUpstashRestBridge } from "./helpers/upstash-rest-bridge";

const servers = await openStoreServers("agentcore-report-bound", { postgresConnections: 12 });
const bridge = servers.redis ? await startUpstashRestBridge() : undefined;
afterAll(async () => {
  await bridge?.close(); // deletes every key written through it
});

const report = (sessionId: string, id: string): ContextReport => ({
  id,
  sessionId,
  runId: `run-${id}`,
  step: 1,
  createdAt: 1_700_000_000_000,
  model: "mock/model",
  strategy: "full",
  window: ["m1"],
  leftOut: [],
  unreadCount: 0,
  facts: [],
  recalled: [],
  tokens: { system: 0, facts: 0, summary: 0, recalled: 0, window: 5, total: 5 },
});

const memory = new InMemoryStore();
const upstashClient = () =>
  new UpstashRedis({ url: bridge!.url, token: bridge!.token, retry: false, enableTelemetry: false });
const stores: [string, ((key?: string) => MemoryStore) | undefined][] = [
  ...persistentStores(servers),
  [
    "UpstashRedisMemoryStore",
    bridge && (() => new UpstashRedisMemoryStore({ client: upstashClient(), prefix: `${servers.redisPrefix}up:` })),
  ],
  ["InMemoryStore", () => memory],
];

describe.each(stores)("%s keeps at most MAX_CONTEXT_REPORTS reports", (name, open) => {
  it.skipIf(!open)("at every moment of 40 concurrent saves, repeated, with no save failing", async () => {
    const writers = Array.from({ length: 4 }, () => open!("reports"));
    const reader = open!("reports");
    const sessionId = `bound-${name}`;
    await writers[0]!.appendMessages!(sessionId, [{ id: "m1", role: "user", content: "hi" }]);
    for (let index = 0; index < MAX_CONTEXT_REPORTS; index++) {
      await writers[0]!.saveContextReport!(sessionId, report(sessionId, `seed-${index}`));
    }
    let most = 0;
    let reads = 0;
    for (let round = 0; round < 6; round++) {
      let saving = true;
      const counting = (async () => {
        // At least one read per round, the rest while the saves are in flight.
        do {
          most = Math.max(most, (await reader.getContextReports!(sessionId)).length);
          reads++;
          // Lets I/O in between: a store that answers from memory would otherwise starve the saves.
          await new Promise((resolve) => setImmediate(resolve));
        } while (saving);
      })();
      const saves = Array.from({ length: 40 }, (_, index) =>
        writers[index % writers.length]!.saveContextReport!(sessionId, report(sessionId, `r${round}-${index}`)),
      );
      const outcomes = await Promise.allSettled(saves);
      saving = false;
      await counting;
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
      expect((await reader.getContextReports!(sessionId)).length).toBe(MAX_CONTEXT_REPORTS);
    }
    // SQLite and in-memory saves run synchronously (no read can fall inside one); the others were read during the saves.
    if (name !== "SqliteMemoryStore" && name !== "InMemoryStore") expect(reads).toBeGreaterThan(6);
    expect(most).toBeLessThanOrEqual(MAX_CONTEXT_REPORTS);
    // The newest round's reports are all kept (the oldest were dropped first).
    const ids = (await reader.getContextReports!(sessionId)).map((stored) => stored.id);
    for (let index = 0; index < 40; index++) expect(ids).toContain(`r5-${index}`);
  });
});

describe("PostgresMemoryStore report saves among the session's other writes", () => {
  const open = persistentStores(servers).find(([name]) => name === "PostgresMemoryStore")?.[1];
  it.skipIf(!open)("never deadlock with appends, cuts, clears and a lease holder's saves", async () => {
    const stores = Array.from({ length: 4 }, () => open!());
    const sessionId = "mixed";
    const failures: unknown[] = [];
    for (let round = 0; round < 5; round++) {
      await stores[0]!.appendMessages(sessionId, [{ id: `m${round}`, role: "user", content: "hi" }]);
      const holder = stores[3]!;
      const release = await holder.lockSession(sessionId, { timeoutMs: 30_000 });
      const writes: Promise<unknown>[] = [
        ...Array.from({ length: 30 }, (_, index) =>
          stores[index % 3]!.saveContextReport!(sessionId, report(sessionId, `x${round}-${index}`)),
        ),
        ...Array.from({ length: 5 }, (_, index) =>
          holder.saveContextReport!(sessionId, report(sessionId, `held${round}-${index}`)),
        ),
        ...Array.from({ length: 5 }, (_, index) =>
          stores[index % 3]!.appendMessages(sessionId, [{ id: `a${round}-${index}`, role: "user", content: "x" }]),
        ),
        stores[1]!
          .deleteMessagesFrom(sessionId, `m${round}`)
          // The message may be gone already (cleared): that is not what this test looks for.
          .catch((error: unknown) => {
            if (!MessageNotFoundError.isInstance(error)) throw error;
          }),
        stores[2]!.clearMessages(sessionId),
      ];
      for (const outcome of await Promise.allSettled(writes)) {
        if (outcome.status === "rejected") failures.push(outcome.reason);
      }
      await release();
    }
    expect(failures.map(String)).toEqual([]);
    expect((await stores[0]!.getContextReports!(sessionId)).length).toBeLessThanOrEqual(MAX_CONTEXT_REPORTS);
  });
});
