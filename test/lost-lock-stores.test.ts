// A run that lost its session lock writes nothing more, on every store with a session lock: its
// context report (recordContext: true), its summary and the session's metadata are fenced like its
// appends. On PostgreSQL, Redis, SQLite and the file store (Upstash shares the Redis stores' code
// and runs the fixture in its own test; the in-memory store has no cross-process lock to lose).
// Store level, the late-writer fixture: every write of a holder whose lock was taken over is
// refused, its report, summary and metadata included. Agent level: a run whose session is taken
// over while the model answers fails with SessionLockLostError at its report, before its tools
// run, and stores neither the report nor the answer; a run whose session is taken over while it
// summarises fails at its summary, before the model is called, and stores no summary; a run whose
// session is taken over while the model answers, which then calls remember_fact or forget_fact (in
// the session's fact scope or the user's), fails with SessionLockLostError at that write (not a
// tool-error result the model sees) and changes no fact: the new holder's stay.
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { SessionBusyError } from "../src/errors/session-busy-error";
import { SessionLockLostError } from "../src/errors/session-lock-lost-error";
import { expectLateWriterFenced } from "../src/stores/__fixtures__/expect-late-writer-fenced";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import type { Fact, MemoryStore } from "../src/stores/memory-store";
import { backendOf } from "../src/stores/backend-of";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { SummaryMemory } from "../src/strategies/summary-memory";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { openStoreServers } from "./helpers/store-servers";

const { directory, redisPrefix, schema, postgres, redis } = await openStoreServers("agentcore-lost-lock", {
  postgresConnections: 6,
});

/**
 * Two store objects on the same data (two servers): `stale`, whose holder will stall past its
 * lock, and `next`; `takeOver` makes `next` take session "s" from the stalled holder.
 */
interface LostLockCase {
  stale: MemoryStore;
  next: MemoryStore;
  takeOver: () => Promise<() => Promise<void>>;
}

/** Retries `next`'s take a few times: the stalled holder's renewal may land between the expiry and the take. */
async function takeWhenExpired(next: MemoryStore, expire: () => Promise<void> | void): Promise<() => Promise<void>> {
  for (let attempt = 0; ; attempt++) {
    await expire();
    try {
      return await next.lockSession!("s", { timeoutMs: 0 });
    } catch (error) {
      if (!SessionBusyError.isInstance(error) || attempt === 5) throw error;
    }
  }
}

let counter = 0;
const cases: [string, (() => LostLockCase) | undefined][] = [
  [
    "PostgresMemoryStore",
    postgres &&
      (() => {
        // A lease is at least 1 s and renewed every third of it: the test expires it by hand, as a stall would.
        const tablePrefix = `c${counter++}_`;
        const next = new PostgresMemoryStore({ pool: postgres, schema, tablePrefix });
        const expire = () =>
          postgres.query(
            `UPDATE "${schema}"."${tablePrefix}session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
          );
        return {
          stale: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
          next,
          takeOver: () => takeWhenExpired(next, async () => void (await expire())),
        };
      }),
  ],
  [
    "RedisMemoryStore",
    redis &&
      (() => {
        // A 200 ms lease runs out between two renewals (they come every second at the least).
        const prefix = `${redisPrefix}c${counter++}:`;
        const next = new RedisMemoryStore({ client: redis, prefix });
        return {
          stale: new RedisMemoryStore({ client: redis, prefix, lockLeaseMs: 200 }),
          next,
          takeOver: () => next.lockSession("s", { timeoutMs: 20_000 }),
        };
      }),
  ],
  [
    "SqliteMemoryStore",
    () => {
      const database = join(directory, `c${counter++}.db`);
      const next = new SqliteMemoryStore(database);
      return {
        stale: new SqliteMemoryStore({ database, lockLeaseMs: 200 }),
        next,
        takeOver: () => next.lockSession("s", { timeoutMs: 20_000 }),
      };
    },
  ],
  [
    "FileMemoryStore",
    () => {
      // The lock file's mtime set back a minute: the holder did not refresh it (another process finds it stale).
      const path = join(directory, `c${counter++}`, "sessions.json");
      const next = new FileMemoryStore(path);
      const expire = () => {
        const lock = readdirSync(join(path, "..")).find((name) => /\.session-[0-9a-f]+\.lock$/.test(name))!;
        const minuteAgo = new Date(Date.now() - 60_000);
        utimesSync(join(path, "..", lock), minuteAgo, minuteAgo);
      };
      return {
        stale: new FileMemoryStore({ path, staleLockMs: 2000 }),
        next,
        takeOver: () => takeWhenExpired(next, expire),
      };
    },
  ],
];

for (const [name, makeCase] of cases) {
  describe.skipIf(!makeCase)(`a lost session lock on ${name}`, () => {
    it("fences every write of the late holder, its context report, summary and metadata included (the late-writer fixture)", async () => {
      const { stale, next, takeOver } = makeCase!();
      await expectLateWriterFenced(stale, next, takeOver);
    });

    it("a run whose session is taken over while the model answers fails at its context report: no tool run, no report, no answer stored", async () => {
      const { stale, next, takeOver } = makeCase!();
      let releaseNext: (() => Promise<void>) | undefined;
      const sent: string[] = [];
      const agent = new Agent({
        model: new MockLanguageModel({
          responses: async (_call, index) => {
            if (index > 0) return { text: "Sent." };
            // The run stalls here past its lock; the next run takes the session and stores its turn.
            releaseNext = await takeOver();
            await next.appendMessages!("s", [
              { id: "b-user", role: "user", content: "question B" },
              { id: "b-answer", role: "assistant", content: "answer B" },
            ]);
            return { text: "", toolCalls: [{ id: "call_1", name: "send_mail", arguments: { to: "a@b.c" } }] };
          },
        }),
        memoryStore: stale,
        sessionId: "s",
        recordContext: true,
        tools: {
          send_mail: tool({
            parameters: z.object({ to: z.string() }),
            execute: async ({ to }: { to: string }) => {
              sent.push(to);
              return { sent: true };
            },
          }),
        },
      });
      const memoryErrors: unknown[] = [];
      agent.on("memory:error", (event) => memoryErrors.push(event.error));
      const error = await agent.run("question A").then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
      expect(SessionLockLostError.isInstance(error) && [error.sessionId, error.operation]).toEqual([
        "s",
        "saveContextReport",
      ]);
      // Failed as a refused append fails the run: not degraded to a memory:error, and before its tools ran.
      expect(memoryErrors.filter(SessionLockLostError.isInstance)).toEqual([]);
      expect(sent).toEqual([]);
      expect(await next.getContextReports!("s")).toEqual([]);
      // A's question was stored while A held the lock; nothing of it after the takeover.
      expect((await next.getMessages("s")).map((message) => [message.role, message.content])).toEqual([
        ["user", "question A"],
        ["user", "question B"],
        ["assistant", "answer B"],
      ]);
      await releaseNext?.();
    });

    for (const [toolName, factScope, scopeId] of [
      ["remember_fact", "session", "session:s"],
      ["forget_fact", "user", "user:u"],
    ] as const) {
      it(`a run whose session is taken over while the model answers fails at its ${toolName} (${factScope} scope): its fact write refused, the new holder's fact kept`, async () => {
        const { stale, next, takeOver } = makeCase!();
        let releaseNext: (() => Promise<void>) | undefined;
        const factOfNext: Fact = { key: "lang", value: "B", createdAt: 1, updatedAt: 1 };
        const model = new MockLanguageModel({
          responses: async (_call, index) => {
            if (index > 0) return { text: "Done." };
            // The run stalls here past its lock; the next run takes the session and remembers a fact.
            releaseNext = await takeOver();
            await backendOf(next).setFact(scopeId, factOfNext, "s");
            const value = toolName === "remember_fact" ? { value: "A" } : {};
            return { text: "", toolCalls: [{ id: "call_1", name: toolName, arguments: { key: "lang", ...value } }] };
          },
        });
        const agent = new Agent({ model, memoryStore: stale, sessionId: "s", enableMemoryTools: true, factScope });
        const toolResults: unknown[] = [];
        agent.on("tool:result", (event) => toolResults.push(event.result));
        const error = await agent.run({ input: "question A", userId: "u" }).then(
          () => undefined,
          (rejection: unknown) => rejection,
        );
        expect(SessionLockLostError.isInstance(error) && [error.sessionId, error.operation]).toEqual([
          "s",
          toolName === "remember_fact" ? "setFact" : "deleteFact",
        ]);
        // The run failed there, as a refused append fails it: no tool result for the model, no second model call.
        expect(toolResults).toEqual([]);
        expect(model.calls).toHaveLength(1);
        expect(await next.getFacts(scopeId)).toEqual([factOfNext]);
        await releaseNext?.();
      });
    }

    it("a run whose session is taken over while it summarises fails at its summary: no summary stored, the model never called", async () => {
      const { stale, next, takeOver } = makeCase!();
      // Six stored messages: with a threshold of 4, the run's first step summarises the oldest turns.
      await stale.appendMessages!(
        "s",
        Array.from({ length: 6 }, (_, index) => ({
          id: `old-${index}`,
          role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
          content: `old ${index}`,
        })),
      );
      let releaseNext: (() => Promise<void>) | undefined;
      const summarizer = new MockLanguageModel({
        responses: async () => {
          // The run stalls in the summariser past its lock; the next run takes the session and stores its turn.
          releaseNext = await takeOver();
          await next.appendMessages!("s", [
            { id: "b-user", role: "user", content: "question B" },
            { id: "b-answer", role: "assistant", content: "answer B" },
          ]);
          return { text: "A summary of the old turns." };
        },
      });
      const model = new MockLanguageModel({ responses: () => ({ text: "answer A" }) });
      const agent = new Agent({
        model,
        memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summarizer }),
        memoryStore: stale,
        sessionId: "s",
      });
      const memoryErrors: unknown[] = [];
      agent.on("memory:error", (event) => memoryErrors.push(event.error));
      const error = await agent.run("question A").then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
      expect(SessionLockLostError.isInstance(error) && [error.sessionId, error.operation]).toEqual([
        "s",
        "saveSummary",
      ]);
      // Failed as a refused append fails the run: not degraded to a memory:error, and before the model call.
      expect(summarizer.calls).toHaveLength(1);
      expect(memoryErrors).toEqual([]);
      expect(model.calls).toEqual([]);
      expect(await next.getSummaries!("s")).toEqual([]);
      // Nothing lost: A's question was stored while A held the lock, then B's turn; the summary is the next run's to write.
      expect((await next.getMessages("s")).map((message) => message.content)).toEqual([
        "old 0",
        "old 1",
        "old 2",
        "old 3",
        "old 4",
        "old 5",
        "question A",
        "question B",
        "answer B",
      ]);
      await releaseNext?.();
    });
  });
}
