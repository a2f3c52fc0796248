// A FileMemoryStore turn makes one fdatasync, not two: the run's user message is written before
// the model call without waiting for the disk, and the run's last durable write covers it. These
// tests count the fdatasync calls (a spy on FileHandle's datasync) and check, on every path a run
// can settle by, that the user message was written before the model call and synced before the
// run settled.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Agent } from "../../agent/agent";
import { AbortError } from "../../errors/abort-error";
import { MockLanguageModel, type MockResponse } from "../../testing/mock-language-model";
import { turnFolding } from "../turn-folding";
import { FileMemoryStore } from "./file-memory-store";

const directory = mkdtempSync(join(tmpdir(), "agentcore-file-folding-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(directory, `sessions-${++files}.json`);

/** Every fdatasync made through a FileHandle, with the size of the journal it was made on at that moment. */
const syncs: { journalBytes: number | undefined }[] = [];
let watched: string | undefined;
beforeAll(async () => {
  const handle = await open(join(directory, "probe"), "w");
  const prototype = Object.getPrototypeOf(handle) as { datasync(): Promise<void> };
  await handle.close();
  const datasync = prototype.datasync;
  vi.spyOn(prototype, "datasync").mockImplementation(function (this: unknown) {
    syncs.push({ journalBytes: watched === undefined ? undefined : statSync(`${watched}.journal`).size });
    return datasync.call(this);
  });
});
afterEach(() => {
  syncs.length = 0;
  watched = undefined;
});
afterAll(() => vi.restoreAllMocks());

const journalBytes = (path: string) => statSync(`${path}.journal`).size;

/** An agent on a fresh file store (fsync on), after one turn (the first write of a store also creates its snapshot). */
async function agentOnFile(responses: (call: unknown, index: number) => MockResponse | Promise<MockResponse>) {
  const path = freshPath();
  const store = new FileMemoryStore(path);
  const agent = new Agent({
    model: new MockLanguageModel({ responses }),
    memory: "sliding_window",
    maxMessages: 10,
    memoryStore: store,
    sessionId: "s",
  });
  await agent.run("warm-up");
  syncs.length = 0;
  watched = path;
  return { path, store, agent };
}

/** A fresh file store holding one synced message, its fdatasyncs watched from here on. */
async function watchedStore(): Promise<{ path: string; store: FileMemoryStore }> {
  const path = freshPath();
  const store = new FileMemoryStore(path);
  await store.appendMessages("s", [{ id: "m0", role: "user", content: "first" }]);
  syncs.length = 0;
  watched = path;
  return { path, store };
}

describe("FileMemoryStore folds a turn's two appends into one fdatasync", () => {
  it("a default agent turn makes one fdatasync, after both its lines are written", async () => {
    let seenByModel: { stored: string[]; syncs: number } | undefined;
    const { path, agent } = await agentOnFile(async (_call, index) => {
      if (index > 0)
        seenByModel = {
          stored: (await new FileMemoryStore(path).getMessages("s")).map((message) => message.content as string),
          syncs: syncs.length,
        };
      return { text: `answer ${index}` };
    });
    for (let turn = 1; turn <= 3; turn++) {
      syncs.length = 0;
      await agent.run(`question ${turn}`);
      // The user message was in the journal, for any process to read, before the model was called, not yet synced.
      expect(seenByModel).toEqual({ stored: expect.arrayContaining([`question ${turn}`]), syncs: 0 });
      expect(seenByModel!.stored).not.toContain(`answer ${turn}`);
      // One sync for the turn, made when the journal already held both lines.
      expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    }
    const stored = await new FileMemoryStore(path).getMessages("s");
    expect(stored.map((message) => message.content).slice(-2)).toEqual(["question 3", "answer 3"]);
  });

  it("a run whose model fails leaves its user message synced when it rejects", async () => {
    const { path, agent } = await agentOnFile((_call, index) =>
      index === 0 ? { text: "ok" } : { error: new Error("provider down") },
    );
    const before = journalBytes(path);
    await expect(agent.run("doomed question")).rejects.toThrow("provider down");
    expect(journalBytes(path)).toBeGreaterThan(before);
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    expect((await new FileMemoryStore(path).getMessages("s")).at(-1)?.content).toBe("doomed question");
  });

  it("an aborted run leaves its user message synced when it rejects", async () => {
    const controller = new AbortController();
    const { path, agent } = await agentOnFile((_call, index) => {
      if (index === 0) return { text: "ok" };
      controller.abort();
      return { error: new Error("cut off") };
    });
    await expect(agent.run({ input: "aborted question", signal: controller.signal })).rejects.toSatisfy(
      AbortError.isInstance,
    );
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    expect((await new FileMemoryStore(path).getMessages("s")).at(-1)?.content).toBe("aborted question");
  });

  it("a streamed run makes one fdatasync too", async () => {
    const { path, agent } = await agentOnFile(() => ({ text: "streamed answer" }));
    const stream = agent.stream("streamed question");
    for await (const _text of stream.textStream);
    await stream.response;
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
  });

  it("syncs a user message left waiting by a slow model after about a second, before the run ends", async () => {
    let syncsDuringCall: number | undefined;
    const { agent } = await agentOnFile(async (_call, index) => {
      if (index > 0) {
        await new Promise((resolve) => setTimeout(resolve, 1_400));
        syncsDuringCall = syncs.length;
      }
      return { text: "slow answer" };
    });
    await agent.run("question for a slow model");
    expect(syncsDuringCall).toBe(1); // the journal's idle timer
    expect(syncs).toHaveLength(2); // and the answer's own
  });

  it("syncs a deferred line within about a second even while more deferred lines keep coming", async () => {
    const { store } = await watchedStore();
    const release = await store.lockSession("s", { timeoutMs: 0 });
    const started = Date.now();
    let index = 0;
    // Another deferred line every 150 ms (other runs starting on a busy server): no pause for an idle timer.
    while (syncs.length === 0 && Date.now() - started < 2_500) {
      await store[turnFolding].appendMessagesDeferringSync("s", [
        { id: `d${++index}`, role: "user", content: `deferred ${index}` },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    // A timer pushed back by each line would not have fired by the loop's end (2.5 s); the margin
    // over "about a second" is for a loaded CI machine.
    expect(syncs).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_400);
    await release();
  });

  it("a direct appendMessages resolves only after its own fdatasync", async () => {
    const { path, store } = await watchedStore();
    for (let index = 1; index <= 3; index++) {
      syncs.length = 0;
      await store.appendMessages("s", [{ id: `m${index}`, role: "user", content: `message ${index}` }]);
      expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    }
  });

  it("releasing the session lock syncs an append whose sync was deferred", async () => {
    const { path, store } = await watchedStore();
    const release = await store.lockSession("s", { timeoutMs: 0 });
    await store[turnFolding].appendMessagesDeferringSync("s", [{ id: "m1", role: "user", content: "deferred" }]);
    expect(syncs).toHaveLength(0);
    await release();
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    await (await store.lockSession("s", { timeoutMs: 0 }))();
    expect(syncs).toHaveLength(1); // nothing left to sync
  });

  it("a deferred line does not move the journal's committed length: losing it to a power loss reads as an unsynced write, not a truncation", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    await store.appendMessages("s", [{ id: "m0", role: "user", content: "synced" }]);
    const committed = () => Number(/"committed":(\d+)/.exec(readFileSync(`${path}.journal`, "utf8"))![1]);
    expect(committed()).toBe(journalBytes(path));
    const release = await store.lockSession("s", { timeoutMs: 0 });
    await store[turnFolding].appendMessagesDeferringSync("s", [{ id: "m1", role: "user", content: "deferred" }]);
    expect(committed()).toBeLessThan(journalBytes(path));
    // The disk as a power loss before the sync may leave it: the deferred line never written out.
    const copy = freshPath();
    copyFileSync(path, copy);
    copyFileSync(`${path}.journal`, `${copy}.journal`);
    truncateSync(`${copy}.journal`, committed());
    expect((await new FileMemoryStore(copy).getMessages("s")).map((message) => message.id)).toEqual(["m0"]);
    await release();
    await store.appendMessages("s", [{ id: "m2", role: "user", content: "synced again" }]);
    expect(committed()).toBe(journalBytes(path));
    expect((await new FileMemoryStore(path).getMessages("s")).map((message) => message.id)).toEqual(["m0", "m1", "m2"]);
  });

  it("with fsync off, a turn makes no fdatasync at all", async () => {
    const path = freshPath();
    const agent = new Agent({
      model: new MockLanguageModel({ responses: () => ({ text: "ok" }) }),
      memoryStore: new FileMemoryStore({ path, fsync: false }),
      sessionId: "s",
    });
    await agent.run("one");
    await agent.run("two");
    expect(syncs).toHaveLength(0);
    expect(await new FileMemoryStore(path).getMessages("s")).toHaveLength(4);
  });
});
