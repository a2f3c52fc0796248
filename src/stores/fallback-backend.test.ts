import { describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error";
import { SessionBusyError } from "../errors/session-busy-error";
import { StoreError } from "../errors/store-error";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "./in-memory-store";
import type { Fact, SummaryRecord } from "./memory-store";
import { sixMethodStore } from "./__fixtures__/six-method-store";
import type { ContextReport } from "./context-report";
import { backendOf } from "./backend-of";

const message = (id: string): AgentMessage => ({ id, role: "user", content: id, timestamp: 1 });
const summary = (id: string): SummaryRecord => ({
  id,
  content: "s",
  fromMessageId: "a",
  toMessageId: "b",
  messageCount: 2,
  model: "m/x",
  createdAt: 1,
});

describe("backendOf", () => {
  it("wraps a store once", () => {
    const store = new InMemoryStore();
    expect(backendOf(store)).toBe(backendOf(store));
    expect(backendOf(new InMemoryStore())).not.toBe(backendOf(store));
  });

  it("reports which capabilities are native", () => {
    expect(backendOf(sixMethodStore()).capabilities).toEqual({
      appendMessages: false,
      deleteMessagesFrom: false,
      getMessageTail: false,
      summaries: false,
      lockSession: false,
      getSession: false,
      updateSession: false,
      entries: false,
      prune: false,
      factScopes: false,
      contextReports: false,
      listSessions: false,
      getMessageRange: false,
      usage: false,
      deleteUserData: false,
    });
    const native = backendOf(new InMemoryStore()).capabilities;
    expect(
      native.appendMessages &&
        native.getMessageTail &&
        native.deleteMessagesFrom &&
        native.summaries &&
        native.getSession &&
        native.entries &&
        native.prune &&
        native.factScopes &&
        native.contextReports &&
        native.listSessions &&
        native.getMessageRange &&
        native.usage &&
        native.deleteUserData,
    ).toBe(true);
  });

  it("refuses listSessions on a store without it with an UnsupportedRuntimeError naming the method; a store without getSession stays ownerless", async () => {
    const backend = backendOf(sixMethodStore());
    const refused = await backend.listSessions({ userId: "ada" }).catch((error: unknown) => error);
    expect(UnsupportedRuntimeError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ feature: "listSessions" });
    expect(String((refused as Error).message)).toContain("listSessions");
    await backend.claimSession("s", "ada");
    await expect(backend.claimSession("s", "bob")).resolves.toBeUndefined();
  });

  it("keeps context reports in this process for a store without them, bounded and cleared with the session", async () => {
    const store = sixMethodStore();
    const adapted = backendOf(store);
    const report = (id: string) => ({ id, sessionId: "s" }) as unknown as ContextReport;
    for (let index = 0; index < 105; index++) await adapted.saveContextReport("s", report(`r${index}`));
    await adapted.saveContextReport("s", report("r104")); // a retry
    const kept = await adapted.getContextReports("s");
    expect(kept.map((entry) => entry.id)).toEqual(Array.from({ length: 100 }, (_, index) => `r${index + 5}`));
    expect((await adapted.getContextReports("s", { last: 2 })).map((entry) => entry.id)).toEqual(["r103", "r104"]);
    expect(await adapted.getContextReports("other")).toEqual([]);
    await expect(adapted.saveContextReport("s", { id: "" } as ContextReport)).rejects.toMatchObject({
      name: "InvalidArgumentError",
      argument: "report",
    });
    await adapted.clearMessages("s");
    expect(await adapted.getContextReports("s")).toEqual([]);
  });

  it("deletes from a message on by read-modify-write without a native deleteMessagesFrom, dropping the summaries it kept for the session", async () => {
    const store = sixMethodStore();
    const adapted = backendOf(store);
    await adapted.appendMessages("s", [message("1"), message("2"), message("3"), message("4")]);
    const summary = {
      id: "x",
      content: "",
      fromMessageId: "1",
      toMessageId: "3",
      messageCount: 3,
      model: "m",
      createdAt: 0,
    };
    await adapted.saveSummary("s", summary);
    await expect(adapted.deleteMessagesFrom("s", "nope")).rejects.toMatchObject({
      name: "MessageNotFoundError",
      sessionId: "s",
      messageId: "nope",
    });
    expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "2", "3", "4"]);
    await adapted.replaceMessagesFrom("s", "3", [message("3b"), message("1")]);
    expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "2", "3b"]);
    expect(await adapted.getSummaries("s")).toEqual([]);
    await adapted.deleteMessagesFrom("s", "2");
    expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["1"]);
  });

  it("appends by read-modify-write without a native append, skipping stored ids", async () => {
    const store = sixMethodStore();
    const adapted = backendOf(store);
    await adapted.appendMessages("s", [message("1"), message("2")]);
    await adapted.appendMessages("s", [message("2"), message("3")]);
    await adapted.appendMessages("s", []);
    expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "2", "3"]);
    expect(store.writes).toBe(2);
  });

  it("keeps the newest summaries with { last }, from a store that returns them all, and from its own records", async () => {
    const record = (id: string): SummaryRecord => ({
      id,
      content: id,
      fromMessageId: "1",
      toMessageId: "1",
      messageCount: 1,
      model: "mock/mock",
      createdAt: 1,
    });
    const records = ["a", "b", "c"].map(record);
    // A custom store written before `last` existed: getSummaries(sessionId) returns everything.
    const asked: unknown[] = [];
    const legacy = Object.assign(sixMethodStore(), {
      getSummaries: async (_sessionId: string, ...rest: unknown[]) => {
        asked.push(...rest);
        return records;
      },
      saveSummary: async () => {},
    });
    const adapted = backendOf(legacy);
    expect(await adapted.getSummaries("s", { last: 2 })).toEqual(records.slice(1));
    expect(await adapted.getSummaries("s")).toEqual(records);
    expect(asked).toEqual([{ last: 2 }]);
    const local = backendOf(sixMethodStore());
    for (const each of records) await local.saveSummary("s", each);
    expect(await local.getSummaries("s", { last: 1 })).toEqual(records.slice(2));
    expect(await local.getSummaries("s", { last: 0 })).toEqual([]);
    await expect(local.getSummaries("s", { last: -2 })).rejects.toMatchObject({
      name: "InvalidArgumentError",
      argument: "last",
    });
  });

  it("reads a tail from a full read when the store has no getMessageTail", async () => {
    const adapted = backendOf(sixMethodStore());
    await adapted.setMessages("s", ["1", "2", "3", "4"].map(message));
    expect(await adapted.getMessageTail("s", 2)).toEqual({ messages: [message("3"), message("4")], total: 4 });
    expect(await adapted.getMessageTail("s", 0)).toEqual({ messages: [], total: 4 });
    expect((await adapted.getMessageTail("s", Infinity)).messages).toHaveLength(4);
    expect(await adapted.getMessageTail("other", 3)).toEqual({ messages: [], total: 0 });
  });

  it("keeps summaries in this process for a store without them, once per id", async () => {
    const first = backendOf(sixMethodStore());
    await first.saveSummary("s", summary("x"));
    await first.saveSummary("s", summary("x"));
    expect(await first.getSummaries("s")).toEqual([summary("x")]);
    expect(await backendOf(sixMethodStore()).getSummaries("s")).toEqual([]);
  });

  it("stops waiting on a store's lockSession that ignores the signal, and releases the lock it takes later", async () => {
    let grant!: () => void;
    let released = 0;
    const store = {
      ...sixMethodStore(),
      lockSession: () =>
        new Promise<() => Promise<void>>((resolve) => {
          grant = () =>
            resolve(async () => {
              released++;
            });
        }),
    };
    const controller = new AbortController();
    const waiting = backendOf(store).lockSession("s", { timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toSatisfy(AbortError.isInstance); // the store has not answered yet
    grant();
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(1);
  });

  it("answers the missing metadata and lock methods with nothing, and refuses to list or prune", async () => {
    const adapted = backendOf(sixMethodStore());
    expect(await adapted.lockSession("s", { timeoutMs: 0 })).toBeUndefined();
    expect(await adapted.getSession("s")).toBeUndefined();
    await adapted.updateSession("s", { agentName: "a" });
    await expect(adapted.entries()).rejects.toSatisfy(StoreError.isInstance);
    await expect(adapted.prune({ olderThan: 0 })).rejects.toSatisfy(StoreError.isInstance);
  });

  it("turns a store failure into a StoreError naming the store, and lets typed errors through", async () => {
    class FlakyStore extends InMemoryStore {
      override async getFacts(): Promise<Fact[]> {
        throw new Error("connection reset");
      }
      async lockSession(sessionId: string): Promise<() => Promise<void>> {
        throw new SessionBusyError({ sessionId });
      }
    }
    const adapted = backendOf(new FlakyStore());
    const error = await adapted.getFacts("scope").catch((thrown: unknown) => thrown);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ store: "FlakyStore", operation: "getFacts" });
    expect((error as Error).message).toContain("connection reset");
    await expect(adapted.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    expect(backendOf(sixMethodStore()).name).toBe("custom store");
  });
});
