import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  appendFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { expectFactScopes } from "../__fixtures__/expect-fact-scopes";
import { expectLockWaitAborts } from "../__fixtures__/expect-lock-wait-aborts";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionBusyError } from "../../errors/session-busy-error";
import type { AgentMessage } from "../../messages/agent-message";
import { testMemoryStore } from "../../testing/test-memory-store";
import { FileMemoryStore } from "./file-memory-store";

const root = mkdtempSync(join(tmpdir(), "agentcore-file-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `case-${counter++}`, "sessions.json");

testMemoryStore("FileMemoryStore", () => new FileMemoryStore(freshPath()), { requireCapabilities: "all" });
testMemoryStore(
  "FileMemoryStore (compacting often)",
  () => new FileMemoryStore({ path: freshPath(), compactAfterBytes: 1, fsync: false }),
  {
    largeContentLength: 200_000,
    requireCapabilities: "all",
  },
);

const turn = (index: number): AgentMessage[] => [
  { id: `u${index}`, role: "user", content: `question ${index}`, timestamp: index },
  { id: `a${index}`, role: "assistant", content: `answer ${index}`, timestamp: index },
];

describe("FileMemoryStore on disk", () => {
  it("writes a readable JSON snapshot and a JSON Lines journal, never a path from a session id", async () => {
    const path = freshPath();
    const store = new FileMemoryStore({ path, compactAfterBytes: 1 });
    await store.appendMessages("../../escape", turn(0));
    await store.appendMessages("a/b", turn(1));
    const snapshot = JSON.parse(readFileSync(path, "utf8"));
    expect(snapshot.format).toBe("agentcore-file-store");
    expect(snapshot.sessions["../../escape"].messages).toEqual(turn(0));
    expect(readFileSync(`${path}.journal`, "utf8").split("\n")[1]).toContain('"session":"a/b"');
    expect((await new FileMemoryStore(path).entries()).map((entry) => entry.sessionId).sort()).toEqual([
      "../../escape",
      "a/b",
    ]);
    expect(readdirSync(join(path, "..")).sort()).toEqual(["sessions.json", "sessions.json.journal"]);
    expect(existsSync(join(root, "escape"))).toBe(false);
  });

  it("costs one journal line per turn: the snapshot is not rewritten until the journal outgrows it", async () => {
    const path = freshPath();
    const store = new FileMemoryStore({ path, compactAfterBytes: 1 });
    await store.setMessages("s", Array.from({ length: 2000 }, (_, index) => turn(index)).flat()); // compacts at once
    const before = statSync(path);
    const journalBefore = statSync(`${path}.journal`).size;
    for (let index = 2000; index < 2010; index++) await store.appendMessages("s", turn(index));
    const after = statSync(path);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    const perTurn = (statSync(`${path}.journal`).size - journalBefore) / 10;
    expect(perTurn).toBeLessThan(400);
    expect(await new FileMemoryStore(path).getMessages("s")).toHaveLength(4020);
  });

  it("sees another instance's writes (another process, in effect) incrementally", async () => {
    const path = freshPath();
    const [writer, reader] = [new FileMemoryStore(path), new FileMemoryStore(path)];
    await writer.appendMessages("s", turn(0));
    expect(await reader.getMessages("s")).toEqual(turn(0));
    await reader.appendMessages("s", turn(1));
    await writer.setFact("s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
    expect(await writer.getMessages("s")).toEqual([...turn(0), ...turn(1)]);
    expect(await reader.getFacts("s")).toHaveLength(1);
  });

  it("getMessageTail survives reopening the store from the same files, before and after compaction", async () => {
    const path = freshPath();
    const store = new FileMemoryStore({ path, fsync: false });
    for (let index = 0; index < 10; index++) await store.appendMessages("s", turn(index));
    const all = Array.from({ length: 10 }, (_, index) => turn(index)).flat();
    expect(await new FileMemoryStore(path).getMessageTail("s", 3)).toEqual({ messages: all.slice(-3), total: 20 });
    const compacting = new FileMemoryStore({ path, compactAfterBytes: 1, fsync: false });
    await compacting.appendMessages("s", turn(10)); // folds the journal into the snapshot
    all.push(...turn(10));
    const reopened = new FileMemoryStore(path);
    expect(await reopened.getMessageTail("s", 4)).toEqual({ messages: all.slice(-4), total: 22 });
    expect(await reopened.getMessageTail("s", 0)).toEqual({ messages: [], total: 22 });
    expect(await reopened.getMessageTail("s", Infinity)).toEqual({ messages: all, total: 22 });
    expect(await reopened.getMessageTail("unknown", 4)).toEqual({ messages: [], total: 0 });
    // What comes back is a copy: changing it changes nothing stored.
    const tail = await reopened.getMessageTail("s", 1);
    tail.messages[0]!.content = "changed";
    expect((await reopened.getMessageTail("s", 1)).messages[0]!.content).toBe("answer 10");
  });

  it("applies each journal line once when reads overlap each other and this instance's writes", async () => {
    const path = freshPath();
    const [writer, reader] = [new FileMemoryStore({ path, fsync: false }), new FileMemoryStore({ path, fsync: false })];
    // Messages without ids: a line applied twice would show as a duplicate.
    const plain = (index: number): AgentMessage[] => [{ role: "user", content: `m${index}` }];
    for (let index = 0; index < 30; index++) {
      await writer.appendMessages("a", plain(index));
      await Promise.all(Array.from({ length: 8 }, () => reader.getMessageTail("a", 2)));
    }
    for (let index = 30; index < 60; index++) {
      let written = false;
      const write = reader.appendMessages("a", plain(index)).finally(() => (written = true));
      const reads: Promise<unknown>[] = [];
      while (!written) {
        reads.push(reader.getMessageTail("b", 1), reader.getMessages("a"));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all([write, ...reads]);
    }
    const expected = Array.from({ length: 60 }, (_, index) => plain(index)).flat();
    expect(await reader.getMessageTail("a", Infinity)).toEqual({ messages: expected, total: 60 });
    expect(await writer.getMessages("a")).toEqual(expected);
    expect(await new FileMemoryStore(path).getMessages("a")).toEqual(expected);
  });

  it("throws CorruptStoreError for a truncated snapshot, keeps a copy aside, never reads it as empty", async () => {
    const path = freshPath();
    const store = new FileMemoryStore({ path, compactAfterBytes: 1 });
    await store.appendMessages("s", turn(0));
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.slice(0, text.length / 2));
    const reopened = new FileMemoryStore(path);
    const error = await reopened.getMessages("s").catch((caught: unknown) => caught);
    expect(CorruptStoreError.isInstance(error)).toBe(true);
    const corrupt = error as CorruptStoreError;
    expect(corrupt.path).toBe(path);
    expect(readFileSync(corrupt.keptAt!, "utf8")).toBe(text.slice(0, text.length / 2));
    expect(corrupt.message).toMatch(/Repair or restore/);
    // Nobody starts over from nothing: this instance, and any other, keep refusing.
    await expect(reopened.appendMessages("s", turn(1))).rejects.toSatisfy(CorruptStoreError.isInstance);
    await expect(new FileMemoryStore(path).appendMessages("s", turn(1))).rejects.toSatisfy(
      CorruptStoreError.isInstance,
    );
    await expect(new FileMemoryStore(path).getMessages("s")).rejects.toSatisfy(CorruptStoreError.isInstance);
    expect(readdirSync(join(path, "..")).filter((name) => name.includes(".corrupt-"))).toHaveLength(1);
  });

  it("throws CorruptStoreError for a snapshot that is not an agentcore file", async () => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, JSON.stringify({ some: "other file" }));
    await expect(new FileMemoryStore(path).getMessages("s")).rejects.toThrow(/not an agentcore file store/);
  });

  it("throws CorruptStoreError for a bad line inside the journal", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    await store.appendMessages("s", turn(0));
    appendFileSync(`${path}.journal`, "{garbage\n");
    await store.appendMessages("other", turn(1)).catch(() => {});
    const error = await new FileMemoryStore(path).getMessages("s").catch((caught: unknown) => caught);
    expect(CorruptStoreError.isInstance(error)).toBe(true);
    expect((error as CorruptStoreError).path).toBe(`${path}.journal`);
  });

  it("skips a line cut short by a crash and truncates it on the next write", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    await store.appendMessages("s", turn(0));
    appendFileSync(`${path}.journal`, '{"op":"append","session":"s","messages":[{"id":"x","ro');
    const reopened = new FileMemoryStore(path);
    expect(await reopened.getMessages("s")).toEqual(turn(0));
    await reopened.appendMessages("s", turn(1));
    expect(await new FileMemoryStore(path).getMessages("s")).toEqual([...turn(0), ...turn(1)]);
    expect(readFileSync(`${path}.journal`, "utf8")).not.toContain('"id":"x"');
  });

  it("ignores a journal left over from a compaction that stopped after the snapshot was replaced", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    await store.appendMessages("s", turn(0));
    await store.clearMessages("s");
    await store.appendMessages("s", turn(1));
    const oldJournal = readFileSync(`${path}.journal`);
    const compacting = new FileMemoryStore({ path, compactAfterBytes: 1 });
    await compacting.appendMessages("s", turn(2)); // compacts: snapshot generation 1
    writeFileSync(`${path}.journal`, oldJournal); // as if the crash came before the journal was reset
    expect(await new FileMemoryStore(path).getMessages("s")).toEqual([...turn(1), ...turn(2)]);
  });

  it("keeps sessions, scopes and fact keys named like Object.prototype members through compaction", async () => {
    const path = freshPath();
    const names = ["__proto__", "constructor", "hasOwnProperty", "toString"];
    const store = new FileMemoryStore(path);
    for (const [index, name] of names.entries()) {
      await store.appendMessages(name, turn(index));
      await store.setFact(name, { key: name, value: `value of ${name}`, createdAt: index, updatedAt: index });
    }
    await new FileMemoryStore({ path, compactAfterBytes: 1 }).appendMessages("trigger", turn(9)); // compacts
    expect(JSON.parse(readFileSync(path, "utf8")).generation).toBeGreaterThan(0);
    const reopened = new FileMemoryStore(path);
    for (const [index, name] of names.entries()) {
      expect(await reopened.getMessages(name)).toEqual(turn(index));
      expect(await reopened.getFacts(name)).toEqual([
        { key: name, value: `value of ${name}`, createdAt: index, updatedAt: index },
      ]);
    }
    expect((await reopened.entries()).map((entry) => entry.sessionId).sort()).toEqual([...names, "trigger"].sort());
  });

  it("refuses an unknown option with an InvalidArgumentError naming it, and the right name for a known misspelling", () => {
    const unknown = () => new FileMemoryStore({ path: freshPath(), compactAfter: 10 } as never);
    expect(unknown).toThrow(InvalidArgumentError);
    expect(unknown).toThrow(/"compactAfter"/);
    const misspelt = () => new FileMemoryStore({ path: freshPath(), filename: "other.json" } as never);
    expect(misspelt).toThrow(/no option "filename": use "path"/);
    expect(
      () =>
        new FileMemoryStore({
          path: freshPath(),
          fsync: false,
          compactAfterBytes: 1,
          staleLockMs: 5000,
          lockTimeoutMs: 100,
        }),
    ).not.toThrow();
  });

  // A lock is an empty file; a lock directory is what versions before it left, still honoured.
  const makeLock = {
    "lock file": (lock: string) => writeFileSync(lock, "", { flag: "wx" }),
    "lock directory (an older version's)": (lock: string) => mkdirSync(lock),
  };
  for (const [kind, make] of Object.entries(makeLock)) {
    it(`breaks a stale ${kind} left by a dead process`, async () => {
      const path = freshPath();
      // A lock timeout far below the stale time: the write succeeds only by breaking the lock, not by waiting it out.
      const store = new FileMemoryStore({ path, staleLockMs: 2000, lockTimeoutMs: 100 });
      await store.appendMessages("s", turn(0));
      make(`${path}.lock`);
      const old = new Date(Date.now() - 60_000);
      utimesSync(`${path}.lock`, old, old);
      await store.appendMessages("s", turn(1));
      expect(existsSync(`${path}.lock`)).toBe(false);
      expect(readdirSync(join(path, "..")).filter((name) => name.includes(".break-"))).toEqual([]);
      expect(await new FileMemoryStore(path).getMessages("s")).toHaveLength(4);
    });

    it(`times out with a StoreError naming the lock when a live process holds it: a ${kind}`, async () => {
      const path = freshPath();
      const store = new FileMemoryStore({ path, lockTimeoutMs: 100 });
      await store.appendMessages("s", turn(0));
      make(`${path}.lock`); // fresh mtime: a live holder
      await expect(store.appendMessages("s", turn(1))).rejects.toThrow(/sessions\.json\.lock/);
      rmSync(`${path}.lock`, { recursive: true });
      await store.appendMessages("s", turn(1));
    });
  }

  it("takes its locks as files holding the holder's token, removed on release", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    await store.appendMessages("s", turn(0));
    const release = await store.lockSession("s", { timeoutMs: 0 });
    const locks = () => readdirSync(join(path, "..")).filter((name) => name.endsWith(".lock"));
    expect(locks()).toHaveLength(1);
    expect(statSync(join(path, "..", locks()[0]!)).isFile()).toBe(true);
    await release();
    expect(locks()).toEqual([]);
  });

  it("lists the scopes that hold facts, for another instance too", async () => {
    const path = freshPath();
    await expectFactScopes(new FileMemoryStore(path));
    expect(await new FileMemoryStore(path).factScopes()).toEqual(["session:alpha", "user:bob"]);
  });

  it("locks a session across instances by a hashed lock file name", async () => {
    const path = freshPath();
    const [first, second] = [new FileMemoryStore(path), new FileMemoryStore(path)];
    const release = await first.lockSession("../user/1", { timeoutMs: 0 });
    await expect(second.lockSession("../user/1", { timeoutMs: 30 })).rejects.toSatisfy(SessionBusyError.isInstance);
    expect(
      readdirSync(join(path, "..")).some((name) => /^sessions\.json\.session-[0-9a-f]{32}\.lock$/.test(name)),
    ).toBe(true);
    const waiting = second.lockSession("../user/1", { timeoutMs: 5_000 });
    await release();
    await (await waiting)();
  });

  it("stops waiting for a session lock held by another instance when the signal aborts", async () => {
    const path = freshPath();
    const [first, second] = [new FileMemoryStore(path), new FileMemoryStore(path)];
    await expectLockWaitAborts(first, second);
  });
});

describe("FileMemoryStore tells a torn last write from a truncated or missing journal", () => {
  /** A store with `turns` turns, one journal line each, written by a fresh instance. */
  async function written(turns: number): Promise<string> {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    for (let index = 0; index < turns; index++) await store.appendMessages("s", turn(index));
    expect(await new FileMemoryStore(path).getMessages("s")).toHaveLength(turns * 2);
    return path;
  }

  async function expectCorruptJournal(path: string, store = new FileMemoryStore(path)): Promise<void> {
    const sizeBefore = existsSync(`${path}.journal`) ? statSync(`${path}.journal`).size : undefined;
    const error = await store.getMessages("s").catch((caught: unknown) => caught);
    expect(CorruptStoreError.isInstance(error)).toBe(true);
    expect((error as CorruptStoreError).path).toBe(`${path}.journal`);
    expect((error as Error).message).toContain(`${path}.journal`);
    // Nothing is written over it: the loss is not made permanent.
    await expect(new FileMemoryStore(path).appendMessages("s", turn(99))).rejects.toSatisfy(
      CorruptStoreError.isInstance,
    );
    expect(existsSync(`${path}.journal`) ? statSync(`${path}.journal`).size : undefined).toBe(sizeBefore);
  }

  it("refuses a journal truncated in the middle of a line", async () => {
    const path = await written(10);
    truncateSync(`${path}.journal`, Math.floor(statSync(`${path}.journal`).size / 2));
    await expectCorruptJournal(path);
  });

  it("refuses a journal truncated at a line boundary (whole turns cut off)", async () => {
    const path = await written(10);
    const lines = readFileSync(`${path}.journal`, "utf8").split("\n");
    writeFileSync(`${path}.journal`, `${lines.slice(0, -3).join("\n")}\n`); // the last two turns gone
    await expectCorruptJournal(path);
  });

  it("refuses a journal truncated under an instance that already read it", async () => {
    const path = await written(10);
    const reader = new FileMemoryStore(path);
    expect(await reader.getMessages("s")).toHaveLength(20);
    truncateSync(`${path}.journal`, statSync(`${path}.journal`).size - 50);
    await expectCorruptJournal(path, reader);
  });

  it("refuses a deleted journal beside its snapshot", async () => {
    const path = await written(3);
    unlinkSync(`${path}.journal`);
    await expectCorruptJournal(path);
  });

  it("still recovers a torn last write after a truncation-protected write", async () => {
    const path = await written(3);
    appendFileSync(`${path}.journal`, '{"op":"append","session":"s","messages":[{"id":"x","ro');
    expect(await new FileMemoryStore(path).getMessages("s")).toHaveLength(6);
    await new FileMemoryStore(path).appendMessages("s", turn(3));
    expect(await new FileMemoryStore(path).getMessages("s")).toEqual([0, 1, 2, 3].flatMap(turn));
  });

  it("reads files written before the journal recorded its length, and upgrades them on the next write", async () => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { recursive: true });
    const line = (index: number) => JSON.stringify({ op: "append", session: "s", messages: turn(index), at: index });
    writeFileSync(
      `${path}.journal`,
      `${JSON.stringify({ format: "agentcore-journal", generation: 0 })}\n${line(0)}\n${line(1)}\n`,
    );
    expect(await new FileMemoryStore(path).getMessages("s")).toEqual([...turn(0), ...turn(1)]);
    await new FileMemoryStore(path).appendMessages("s", turn(2));
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(`${path}.journal`, "utf8").split("\n")[0]).toContain('"committed":');
    expect(await new FileMemoryStore(path).getMessages("s")).toEqual([0, 1, 2].flatMap(turn));
    truncateSync(`${path}.journal`, statSync(`${path}.journal`).size - 10);
    await expectCorruptJournal(path);
  });
});
