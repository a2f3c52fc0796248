// A FileMemoryStore fences the writes of a lock holder: once a session lock this store held was
// taken over (this process stalled past staleLockMs and another broke it), every write to the
// session is refused with SessionLockLostError and nothing of it is stored; once the writers'
// lock was lost while a write waited, the write is refused before its line reaches the journal.
// The multi-process versions (a SIGSTOPped holder, eight racing breakers) are in test/.
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent";
import { SessionBusyError } from "../../errors/session-busy-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { StoreError } from "../../errors/store-error";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { FileMemoryStore } from "./file-memory-store";
import { FileStoreEngine } from "./file-store-engine";
import { builtInPartsOf } from "../built-in-backend";
import type { Fact } from "../memory-store";
import { backendOf } from "../backend-of";
import { emptyTotals } from "../usage-totals";

const root = mkdtempSync(join(tmpdir(), "agentcore-file-fencing-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `case-${counter++}`, "sessions.json");
const sessionLockOf = (path: string) =>
  join(path, "..", readdirSync(join(path, "..")).find((name) => /\.session-[0-9a-f]+\.lock$/.test(name))!);

/**
 * What another process does to a holder that stalled past the stale time: finds its session lock
 * stale and takes the session. The lock's mtime is set back a minute (the holder did not refresh
 * it); the holder's refresh timer may touch it again between the two steps, so this tries again.
 */
async function takeOver(path: string, taker: FileMemoryStore): Promise<() => Promise<void>> {
  for (let attempt = 0; ; attempt++) {
    const lock = sessionLockOf(path);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    try {
      return await taker.lockSession("s", { timeoutMs: 0 });
    } catch (error) {
      if (!SessionBusyError.isInstance(error) || attempt === 5) throw error;
    }
  }
}

const stored = async (path: string) => (await new FileMemoryStore(path).getMessages("s")).map((message) => message.id);

describe("FileMemoryStore fences a holder that lost its session lock", () => {
  it("refuses every write to the session with SessionLockLostError, stores none of them, and its release leaves the new holder's lock", async () => {
    const path = freshPath();
    const [stalled, taker] = [new FileMemoryStore({ path, staleLockMs: 2000 }), new FileMemoryStore(path)];
    const releaseStalled = await stalled.lockSession("s", { timeoutMs: 0 });
    await stalled.appendMessages("s", [{ id: "a-user", role: "user", content: "question A" }]);
    const releaseTaker = await takeOver(path, taker);
    await taker.appendMessages("s", [{ id: "b-user", role: "user", content: "question B" }]);

    const refusals = [
      ["appendMessages", stalled.appendMessages("s", [{ id: "a-answer", role: "assistant", content: "late" }])],
      ["setMessages", stalled.setMessages("s", [])],
      ["clearMessages", stalled.clearMessages("s")],
      ["deleteMessagesFrom", stalled.deleteMessagesFrom("s", "b-user")],
      [
        "deleteMessagesFrom",
        builtInPartsOf(stalled)!.replaceFrom!("s", "a-user", [{ id: "a-late", role: "user", content: "late" }]),
      ],
      ["updateSession", stalled.updateSession("s", { tags: ["late"] })],
      ["updateSession", stalled.updateSession("s", { title: "Late", metadata: { late: true } })],
      ["updateSession", backendOf(stalled).titleSession("s", "Late", { ...emptyTotals(), modelCalls: 1 })],
      [
        "appendMessages",
        stalled.appendMessages("s", [{ id: "a-paid", role: "assistant", content: "late" }], {
          usage: { ...emptyTotals(), modelCalls: 1 },
        }),
      ],
      [
        "saveSummary",
        stalled.saveSummary("s", {
          id: "late-summary",
          content: "late",
          fromMessageId: "a-user",
          toMessageId: "a-user",
          messageCount: 1,
          model: "mock",
          createdAt: Date.now(),
        }),
      ],
    ] as const;
    for (const [operation, refused] of refusals) {
      const error = await refused.then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
      expect(SessionLockLostError.isInstance(error), `${operation} refused`).toBe(true);
      expect(error).toMatchObject({ sessionId: "s", operation, store: "FileMemoryStore" });
    }
    const session = await taker.getSession("s");
    expect(session?.tags).toBeUndefined();
    expect(session).not.toHaveProperty("title");
    expect(session).not.toHaveProperty("metadata");
    expect(session?.usage).toEqual(emptyTotals());
    expect(await taker.getSummaries("s")).toEqual([]);

    await releaseStalled(); // the woken holder's release: the lock is not its any more
    await expect(new FileMemoryStore(path).lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(
      SessionBusyError.isInstance,
    );
    await taker.appendMessages("s", [{ id: "b-answer", role: "assistant", content: "answer B" }]);
    await releaseTaker();
    expect(await stored(path)).toEqual(["a-user", "b-user", "b-answer"]);
    // Outside a run (no lock held) the same store writes unfenced again.
    await stalled.appendMessages("s", [{ id: "later", role: "user", content: "a new run" }]);
    expect(await stored(path)).toEqual(["a-user", "b-user", "b-answer", "later"]);
  });

  it("a run whose session was taken over while the model answered fails with SessionLockLostError and stores no answer", async () => {
    const path = freshPath();
    const taker = new FileMemoryStore(path);
    let releaseTaker: (() => Promise<void>) | undefined;
    const agent = new Agent({
      model: new MockLanguageModel({
        responses: async () => {
          // The run stalls here past its lock; run B takes the session and answers.
          releaseTaker = await takeOver(path, taker);
          await taker.appendMessages("s", [
            { id: "b-user", role: "user", content: "question B" },
            { id: "b-answer", role: "assistant", content: "answer B" },
          ]);
          return { text: "late answer A" };
        },
      }),
      memoryStore: new FileMemoryStore({ path, staleLockMs: 2000 }),
      sessionId: "s",
    });
    const error = await agent.run("question A").then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(SessionLockLostError.isInstance(error)).toBe(true);
    const messages = await new FileMemoryStore(path).getMessages("s");
    // A's question was written while A held the lock; its answer, after the takeover, never.
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "question A"],
      ["user", "question B"],
      ["assistant", "answer B"],
    ]);
    await releaseTaker?.();
  });
});

describe("FileMemoryStore fences a writer that lost the writers' lock", () => {
  it("refuses the write before its line reaches the journal, and leaves the lock of the process that broke it", async () => {
    const path = freshPath();
    await new FileMemoryStore(path).appendMessages("s", [{ id: "m0", role: "user", content: "first" }]);
    const journalBefore = readFileSync(`${path}.journal`, "utf8");
    const engine = new FileStoreEngine({
      path,
      fsync: true,
      compactAfterBytes: 1 << 20,
      staleLockMs: 2000,
      lockTimeoutMs: 1000,
    });
    const write = engine.write("appendMessages", "s", () => {
      // While this writer holds the writers' lock it stalls; another process breaks the lock and takes it.
      unlinkSync(`${path}.lock`);
      writeFileSync(`${path}.lock`, "another-process", { flag: "wx" });
      return { op: "append", session: "s", messages: [{ id: "late", role: "user", content: "late" }], at: Date.now() };
    });
    const error = await write.then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: "appendMessages", sessionId: "s" });
    expect(readFileSync(`${path}.journal`, "utf8")).toBe(journalBefore); // nothing written, so a retry duplicates nothing
    expect(readFileSync(`${path}.lock`, "utf8")).toBe("another-process"); // its release left the new holder's lock
    expect(statSync(`${path}.lock`).isFile()).toBe(true);
    unlinkSync(`${path}.lock`);
    expect(await stored(path)).toEqual(["m0"]);
  });
});

describe("FileMemoryStore subclassed", () => {
  it("keeps a subclass's own setFact and deleteFact on a run's fact writes (their override, unfenced, as before)", async () => {
    const calls: string[] = [];
    class LoggingStore extends FileMemoryStore {
      override async setFact(scopeId: string, fact: Fact): Promise<void> {
        calls.push(`set ${scopeId} ${fact.key}`);
        await super.setFact(scopeId, fact);
      }
      override async deleteFact(scopeId: string, key: string): Promise<boolean> {
        calls.push(`delete ${scopeId} ${key}`);
        return super.deleteFact(scopeId, key);
      }
    }
    const store = new LoggingStore(freshPath());
    const release = await store.lockSession("s", { timeoutMs: 0 });
    const adapted = backendOf(store);
    await adapted.setFact("user:u", { key: "city", value: "Lisbon", createdAt: 1, updatedAt: 1 }, "s");
    await adapted.deleteFact("user:u", "city", "s");
    await release();
    expect(calls).toEqual(["set user:u city", "delete user:u city"]);
    // The built-in class itself goes through its fenced writes (its public methods are not called).
    const plain = new FileMemoryStore(freshPath());
    expect(builtInPartsOf(plain)?.facts).toBeDefined();
  });
});
