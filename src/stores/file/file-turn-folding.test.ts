// A FileMemoryStore turn makes one fdatasync, not two: the run's user message is written before
// the model call without waiting for the disk, and the run's last durable write covers it. These
// tests count the fdatasync calls (a spy on FileHandle's datasync) and check, on every path a run
// can settle by, that the user message was written before the model call and synced before the
// run settled, by the run itself, before it released its session lock (the release syncs too, as
// a backstop, which would hide a run that forgot). Timers are faked where a test is about one, so
// no test races a timer against a sleep.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { Agent } from "../../agent/agent";
import { AbortError } from "../../errors/abort-error";
import { MockLanguageModel, type MockResponse } from "../../testing/mock-language-model";
import { builtInPartsOf } from "../built-in-backend";
import { FileMemoryStore } from "./file-memory-store";
import { DEFERRED_SYNC_MS } from "./journal-file";

const directory = mkdtempSync(join(tmpdir(), "agentcore-file-folding-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(directory, `sessions-${++files}.json`);

/** Every fdatasync made through a FileHandle, with the size of the journal it was made on at that moment. */
const syncs: { journalBytes: number | undefined }[] = [];
/** "sync" for each fdatasync and "release" for each session lock release called (see `recordReleases`), in order. */
const order: string[] = [];
let watched: string | undefined;
beforeAll(async () => {
  const handle = await open(join(directory, "probe"), "w");
  const prototype = Object.getPrototypeOf(handle) as { datasync(): Promise<void> };
  await handle.close();
  const datasync = prototype.datasync;
  vi.spyOn(prototype, "datasync").mockImplementation(function (this: unknown) {
    syncs.push({ journalBytes: watched === undefined ? undefined : statSync(`${watched}.journal`).size });
    order.push("sync");
    return datasync.call(this);
  });
});
afterEach(() => {
  syncs.length = 0;
  order.length = 0;
  watched = undefined;
});
afterAll(() => vi.restoreAllMocks());

const journalBytes = (path: string) => statSync(`${path}.journal`).size;

/** Records in `order` the moment the agent calls the release of each session lock it takes on `store`. */
function recordReleases(store: FileMemoryStore): void {
  const folding = builtInPartsOf(store)!.folding!;
  const lock = folding.lockSessionReadingTail.bind(folding);
  folding.lockSessionReadingTail = async (...args) => {
    const locked = await lock(...args);
    return {
      ...locked,
      release: () => {
        order.push("release");
        return locked.release();
      },
    };
  };
}

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
  recordReleases(store);
  syncs.length = 0;
  order.length = 0;
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
      order.length = 0;
      await agent.run(`question ${turn}`);
      // The run's own sync, before it gives its session up: the release's backstop finds nothing left.
      expect(order).toEqual(["sync", "release"]);
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
    expect(order).toEqual(["sync", "release"]);
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
    expect(order).toEqual(["sync", "release"]);
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
    expect((await new FileMemoryStore(path).getMessages("s")).at(-1)?.content).toBe("aborted question");
  });

  it("a streamed run makes one fdatasync too", async () => {
    const { path, agent } = await agentOnFile(() => ({ text: "streamed answer" }));
    const stream = agent.stream("streamed question");
    for await (const _text of stream.textStream);
    await stream.response;
    expect(order).toEqual(["sync", "release"]);
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
  });

  it("syncs a user message left waiting by a slow model once DEFERRED_SYNC_MS passed, while other runs keep the journal busy", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let duringCall: { beforeBackstop: number; after: number; journalBytes: number } | undefined;
    const { path, store, agent } = await agentOnFile(async (_call, index) => {
      if (index === 0) return { text: "warm" };
      // The model takes its time while other runs on this server write their own user messages
      // every 150 ms: the journal's handle is never idle, so only the backstop can sync.
      let elapsed = 0;
      for (let step = 1; elapsed + 150 < DEFERRED_SYNC_MS; step++) {
        await vi.advanceTimersByTimeAsync(150);
        elapsed += 150;
        await builtInPartsOf(store)!.folding!.appendMessagesDeferringSync!(`other-${step}`, [
          { id: `o${step}`, role: "user", content: "another run's question" },
        ]);
      }
      const beforeBackstop = syncs.length;
      await vi.advanceTimersByTimeAsync(DEFERRED_SYNC_MS - elapsed); // DEFERRED_SYNC_MS after the user message
      await store.getMessages("s"); // queued behind the backstop's sync
      duringCall = { beforeBackstop, after: syncs.length, journalBytes: journalBytes(path) };
      return { text: "slow answer" };
    });
    await agent.run("question for a slow model");
    // Nothing synced before DEFERRED_SYNC_MS had passed; then one sync, covering every line written.
    expect(duringCall).toMatchObject({ beforeBackstop: 0, after: 1 });
    expect(syncs[0]).toEqual({ journalBytes: duringCall!.journalBytes });
    expect(syncs).toHaveLength(2); // and the answer's own
  });

  it("syncs a deferred line DEFERRED_SYNC_MS after it was written, however many deferred lines follow (the timer is not pushed back)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { path, store } = await watchedStore();
    const release = await store.lockSession("s", { timeoutMs: 0 });
    const defer = (index: number) =>
      builtInPartsOf(store)!.folding!.appendMessagesDeferringSync!("s", [
        { id: `d${index}`, role: "user", content: `deferred ${index}` },
      ]);
    await defer(0);
    // Another deferred line every 150 ms (other runs starting on a busy server): the handle is never idle.
    let elapsed = 0;
    for (let index = 1; elapsed + 150 < DEFERRED_SYNC_MS; index++) {
      await vi.advanceTimersByTimeAsync(150);
      elapsed += 150;
      await defer(index);
    }
    expect(syncs).toHaveLength(0); // not before DEFERRED_SYNC_MS
    await vi.advanceTimersByTimeAsync(DEFERRED_SYNC_MS - elapsed);
    await store.getMessages("s"); // queued behind the backstop's sync
    expect(syncs).toEqual([{ journalBytes: journalBytes(path) }]);
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
    await builtInPartsOf(store)!.folding!.appendMessagesDeferringSync!("s", [
      { id: "m1", role: "user", content: "deferred" },
    ]);
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
    await builtInPartsOf(store)!.folding!.appendMessagesDeferringSync!("s", [
      { id: "m1", role: "user", content: "deferred" },
    ]);
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
