// A stalled approver and a second approval run the tool once (docs/approvals.md, "A stalled
// approver"), on PostgreSQL, Redis, SQLite and the file store. Process A approves a call and its
// tool starts; A stalls past its lock; process B (another store object on the same data) takes the
// session and approves the same call: the call is claimed in the store (A's `outcomeUnknown` tool
// message, appended fenced before the tool ran), so B gets ToolApprovalNotPendingError and runs
// nothing. A resumes: its result is refused (SessionLockLostError). The call stays "outcome
// unknown" (A died after its claim, as far as the store knows): a replayed approval is refused and
// runs nothing, the model is told the outcome is unknown, and the UI shows an error output.
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { OUTCOME_UNKNOWN_CONTENT } from "../src/agent/tool-approvals";
import { SessionBusyError } from "../src/errors/session-busy-error";
import { SessionLockLostError } from "../src/errors/session-lock-lost-error";
import { ToolApprovalNotPendingError } from "../src/errors/tool-approval-not-pending-error";
import type { RecallMemoryProvider } from "../src/providers/memory-provider";
import { isToolPairingValid } from "../src/messages/validate-tool-pairing";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { MockLanguageModel, type MockResponse } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import { openStoreServers } from "./helpers/store-servers";

const { directory, redisPrefix, schema, postgres, redis } = await openStoreServers("agentcore-approval-claim", {
  postgresConnections: 6,
});

/** Two store objects on the same data: `stale`, whose run stalls past its lock, and `next`; `takeOver` makes `next` take session "s". */
interface StallCase {
  stale: MemoryStore;
  next: () => MemoryStore;
  takeOver: (next: MemoryStore) => Promise<() => Promise<void>>;
}

/** Retries the take a few times: the stalled holder's renewal may land between the expiry and the take. */
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
const cases: [string, (() => StallCase) | undefined][] = [
  [
    "PostgresMemoryStore",
    postgres &&
      (() => {
        // A lease is renewed every third of it: expired by hand, as a stall would let it run out.
        const tablePrefix = `c${counter++}_`;
        const expire = async () =>
          void (await postgres.query(
            `UPDATE "${schema}"."${tablePrefix}session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
          ));
        return {
          stale: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
          next: () => new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
          takeOver: (next) => takeWhenExpired(next, expire),
        };
      }),
  ],
  [
    "RedisMemoryStore",
    redis &&
      (() => {
        // A 200 ms lease runs out between two renewals.
        const prefix = `${redisPrefix}c${counter++}:`;
        return {
          stale: new RedisMemoryStore({ client: redis, prefix, lockLeaseMs: 200 }),
          next: () => new RedisMemoryStore({ client: redis, prefix }),
          takeOver: (next) => next.lockSession!("s", { timeoutMs: 20_000 }),
        };
      }),
  ],
  [
    "SqliteMemoryStore",
    () => {
      const database = join(directory, `c${counter++}.db`);
      return {
        stale: new SqliteMemoryStore({ database, lockLeaseMs: 200 }),
        next: () => new SqliteMemoryStore(database),
        takeOver: (next) => next.lockSession!("s", { timeoutMs: 20_000 }),
      };
    },
  ],
  [
    "FileMemoryStore",
    () => {
      // The lock file's mtime set back a minute: the stalled holder did not refresh it.
      const path = join(directory, `c${counter++}`, "sessions.json");
      const expire = () => {
        const lock = readdirSync(join(path, "..")).find((name) => /\.session-[0-9a-f]+\.lock$/.test(name))!;
        const minuteAgo = new Date(Date.now() - 60_000);
        utimesSync(join(path, "..", lock), minuteAgo, minuteAgo);
      };
      return {
        stale: new FileMemoryStore({ path, staleLockMs: 2000 }),
        next: () => new FileMemoryStore(path),
        takeOver: (next) => takeWhenExpired(next, expire),
      };
    },
  ],
];

/** An agent on session "s" whose `send_mail` needs approval; `execute` is what the tool does. */
function mailAgent(
  store: MemoryStore,
  responses: MockResponse[],
  execute: () => Promise<unknown>,
  memoryProvider?: RecallMemoryProvider,
) {
  const model = new MockLanguageModel({ responses });
  const agent = new Agent({
    model,
    memoryStore: store,
    sessionId: "s",
    ...(memoryProvider ? { memoryProvider, memoryProviderTimeoutMs: 600_000 } : {}),
    tools: {
      send_mail: tool({ parameters: z.object({ to: z.string() }), needsApproval: true, execute }),
    },
  });
  return { agent, model };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

for (const [name, makeCase] of cases) {
  describe.skipIf(!makeCase)(`a stalled approver on ${name}`, () => {
    it("runs the tool once: a second approval while the first stalls is not pending, the stalled result is refused, the call stays outcome unknown", async () => {
      const { stale, next, takeOver } = makeCase!();
      const runs: string[] = [];
      const asked = await mailAgent(
        stale,
        [{ text: "Confirm?", toolCalls: [{ id: "call_1", name: "send_mail", arguments: { to: "a@b.c" } }] }],
        async () => runs.push("asking run"),
      ).agent.run("Mail a@b.c");
      expect(asked.finishReason).toBe("tool-approval");

      // B: another process on the same data, approving the same call.
      const second = mailAgent(next(), [{ text: "Sent by B." }], async () => {
        runs.push("B");
        return { sent: true };
      });
      let secondError: unknown;
      // A: its tool starts, then A stalls past its lock; B takes the session and approves meanwhile.
      const first = mailAgent(stale, [{ text: "Sent by A." }], async () => {
        runs.push("A");
        const storeOfB = next();
        const releaseB = await takeOver(storeOfB);
        await releaseB();
        secondError = await caught(
          second.agent.run({ sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] }),
        );
        return { sent: true };
      });
      const firstError = await caught(
        first.agent.run({ sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] }),
      );

      expect(runs).toEqual(["A"]);
      expect(ToolApprovalNotPendingError.isInstance(secondError) && secondError.toolCallId).toBe("call_1");
      expect(second.model.calls).toHaveLength(0);
      expect(SessionLockLostError.isInstance(firstError) && firstError.sessionId).toBe("s");
      expect(first.model.calls).toHaveLength(0);

      // What the store holds: the claim, A's result never recorded.
      const reader = next();
      const stored = await reader.getMessages("s");
      expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
      expect(stored[2]).toMatchObject({
        role: "tool",
        toolCallId: "call_1",
        content: OUTCOME_UNKNOWN_CONTENT,
        approval: { approved: true },
        outcomeUnknown: true,
      });
      const [, shown] = convertToUIMessages(stored);
      expect(shown!.parts.find((part) => part.type === "tool-send_mail")).toMatchObject({
        state: "output-error",
        errorText: OUTCOME_UNKNOWN_CONTENT,
        approval: { approved: true },
      });

      // A replayed approval (another process, later) finds the call answered and runs nothing.
      const replay = mailAgent(reader, [{ text: "Sent again." }], async () => runs.push("replay"));
      const replayError = await caught(
        replay.agent.run({ sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] }),
      );
      expect(ToolApprovalNotPendingError.isInstance(replayError)).toBe(true);
      // The conversation goes on: the model is told the outcome is unknown, the pairing rule holds.
      const later = mailAgent(reader, [{ text: "I could not confirm the mail was sent." }], async () =>
        runs.push("later"),
      );
      await later.agent.run("Was it sent?");
      const sent = later.model.calls[0]!.messages;
      expect(isToolPairingValid(sent)).toBe(true);
      expect(sent.filter((message) => message.role === "tool")).toMatchObject([
        { toolCallId: "call_1", content: OUTCOME_UNKNOWN_CONTENT },
      ]);
      expect(runs).toEqual(["A"]);
    });

    it("a run that stalls before its claim is refused at the claim: its tool never runs, the second approver's result stands", async () => {
      const { stale, next, takeOver } = makeCase!();
      const runs: string[] = [];
      const asked = await mailAgent(
        stale,
        [{ text: "Confirm?", toolCalls: [{ id: "call_1", name: "send_mail", arguments: { to: "a@b.c" } }] }],
        async () => runs.push("asking run"),
      ).agent.run("Mail a@b.c");
      expect(asked.finishReason).toBe("tool-approval");

      const second = mailAgent(next(), [{ text: "Sent by B." }], async () => {
        runs.push("B");
        return { sent: true };
      });
      let secondResult: unknown;
      // A read the pending step, then stalls (here, in its memory provider's recall, which comes
      // before the answers): B takes the session and approves the same call meanwhile.
      const stall: RecallMemoryProvider = {
        type: "stalling-recall",
        read: async () => {
          const releaseB = await takeOver(next());
          await releaseB();
          secondResult = await second.agent.run({
            sessionId: "s",
            approvals: [{ toolCallId: "call_1", approved: true }],
          });
          return [];
        },
        write: async () => {},
      };
      const first = mailAgent(
        stale,
        [{ text: "Sent by A." }],
        async () => {
          runs.push("A");
          return { sent: true };
        },
        stall,
      );
      const firstError = await caught(
        first.agent.run({ input: "Go ahead", sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] }),
      );

      expect(runs).toEqual(["B"]);
      expect(SessionLockLostError.isInstance(firstError) && firstError.sessionId).toBe("s");
      expect(first.model.calls).toHaveLength(0);
      expect(secondResult).toMatchObject({ text: "Sent by B." });
      const stored = await next().getMessages("s");
      expect(
        stored.map((message) => [message.role, message.role === "tool" ? message.outcomeUnknown : undefined]),
      ).toEqual([
        ["user", undefined],
        ["assistant", undefined],
        ["tool", undefined],
        ["assistant", undefined],
      ]);
      expect(stored[2]).toMatchObject({ role: "tool", toolCallId: "call_1", approval: { approved: true } });
      expect(stored[3]).toMatchObject({ role: "assistant", content: "Sent by B." });
    });
  });
}
