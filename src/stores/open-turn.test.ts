import { describe, expect, it } from "vitest";
import { SessionOwnershipError } from "../errors/session-ownership-error";
import { StoreError } from "../errors/store-error";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "./in-memory-store";
import type { MessageTail, SessionLockOptions } from "./memory-store";
import { sixMethodStore } from "./__fixtures__/six-method-store";
import { backendOf } from "./backend-of";
import { builtInBackend } from "./built-in-backend";
import type { TurnFolding } from "./built-in-store-parts";
import { storeBackend } from "./store-backend";

const message = (id: string): AgentMessage => ({ id, role: "user", content: id, timestamp: 1 });
const ids = (messages: readonly AgentMessage[]) => messages.map((each) => each.id);

/** An in-memory store served as a built-in store with a session lock and a recording `TurnFolding` (as the file and PostgreSQL stores have), and a switch that fails appends. */
function foldingStore(options: { foldedTail?: boolean; deferring?: boolean } = {}) {
  const calls: string[] = [];
  const store = new InMemoryStore();
  let failAppends = false;
  const release = async () => {
    calls.push("release");
  };
  const append = async (sessionId: string, messages: AgentMessage[]) => {
    if (failAppends) throw new Error("disk full");
    await store.appendMessages(sessionId, messages);
  };
  const folding: TurnFolding = {
    async lockSessionReadingTail(sessionId: string, _lock: SessionLockOptions, limit: number) {
      calls.push(`lockSessionReadingTail ${limit}`);
      const tail: MessageTail | undefined =
        options.foldedTail === false ? undefined : await store.getMessageTail(sessionId, limit);
      return { release, ...(tail ? { tail } : {}) };
    },
    async appendMessagesAndUnlock(sessionId, messages) {
      calls.push(`appendMessagesAndUnlock ${ids(messages)}`);
      await append(sessionId, messages);
      return true;
    },
    ...(options.deferring === false
      ? {}
      : {
          async appendMessagesDeferringSync(sessionId: string, messages: AgentMessage[]) {
            calls.push(`appendMessagesDeferringSync ${ids(messages)}`);
            await append(sessionId, messages);
          },
          async syncAppends() {
            calls.push("syncAppends");
          },
        }),
  };
  const owners = new Map<string, string>();
  const claimSession = async (sessionId: string, userId: string) => {
    calls.push(`claimSession ${userId}`);
    if (!owners.has(sessionId)) owners.set(sessionId, userId);
    return owners.get(sessionId);
  };
  // The same function for a property every time: the backend tells a built-in method by identity.
  const methods = new Map<PropertyKey, unknown>();
  const method = (property: PropertyKey, make: () => unknown) => {
    if (!methods.has(property)) methods.set(property, make());
    return methods.get(property);
  };
  const wrapped: InMemoryStore = new Proxy(store, {
    get(target, property) {
      // A built-in backend over this store, with the folding (its prototype: the store itself).
      if (property === storeBackend)
        return () => builtInBackend(wrapped, { prototype: wrapped, folding, claimSession });
      if (property === "lockSession")
        return method(property, () => async () => {
          calls.push("lockSession");
          return release;
        });
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      return method(property, () => (...args: unknown[]) => {
        if (property === "appendMessages") {
          calls.push(`appendMessages ${ids(args[1] as AgentMessage[])}`);
          return append(args[0] as string, args[1] as AgentMessage[]);
        }
        if (property === "getMessageTail" || property === "getMessages") calls.push(String(property));
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      });
    },
  });
  return { store: wrapped, inner: store, calls, failAppends: () => (failAppends = true) };
}

describe("openTurn", () => {
  it("on a store with only the six methods: no lock, the whole history, appends by read-modify-write", async () => {
    const store = sixMethodStore();
    await store.setMessages("s", ["1", "2", "3"].map(message));
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 2, releaseWithLast: true });
    // No native tail read: one full read serves every window.
    expect(await turn.tail()).toEqual({ messages: ["1", "2", "3"].map(message), total: 3 });
    await turn.append([message("u")]);
    await turn.append([message("u"), message("a")], { last: true });
    await turn.release();
    await turn.release();
    expect(ids(await store.getMessages("s"))).toEqual(["1", "2", "3", "u", "a"]);
  });

  it("reads the tail with the lock in one call where the store folds them, and reads nothing again", async () => {
    const { store, inner, calls } = foldingStore();
    await inner.appendMessages("s", ["1", "2", "3"].map(message));
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 1.5 });
    expect(await turn.tail()).toEqual({ messages: ["2", "3"].map(message), total: 3, limit: 2 });
    expect(calls).toEqual(["lockSessionReadingTail 2"]);
    await turn.release();
  });

  it("with a userId: takes the lock, checks the owner, and only then reads the tail; another user's run reads nothing", async () => {
    const { store, inner, calls } = foldingStore();
    await inner.appendMessages("s", ["1", "2", "3"].map(message));
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 2, userId: "ada" });
    expect(await turn.tail()).toEqual({ messages: ["2", "3"].map(message), total: 3, limit: 2 });
    await turn.release();
    expect(calls).toEqual(["lockSession", "claimSession ada", "getMessageTail", "release"]);
    calls.length = 0;
    const refused = await backendOf(store)
      .openTurn("s", { timeoutMs: 0, tailLimit: 2, userId: "bob" })
      .catch((error: unknown) => error);
    expect(SessionOwnershipError.isInstance(refused)).toBe(true);
    // The lock is given back; no history was read.
    expect(calls).toEqual(["lockSession", "claimSession bob", "release"]);
  });

  it("reads the tail after the lock when the folded lock could not read it", async () => {
    const { store, inner, calls } = foldingStore({ foldedTail: false });
    await inner.appendMessages("s", ["1", "2", "3"].map(message));
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 2 });
    expect(await turn.tail()).toEqual({ messages: ["2", "3"].map(message), total: 3, limit: 2 });
    expect(calls).toEqual(["lockSessionReadingTail 2", "getMessageTail"]);
    await turn.release();
  });

  it("reads a longer tail, or the whole history, under the lock it holds: no second lock, the first read kept", async () => {
    const { store, inner, calls } = foldingStore();
    await inner.appendMessages("s", ["1", "2", "3", "4", "5"].map(message));
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 2 });
    expect(await turn.tail()).toEqual({ messages: ["4", "5"].map(message), total: 5, limit: 2 });
    expect(await turn.tail({ limit: 4 })).toEqual({ messages: ["2", "3", "4", "5"].map(message), total: 5, limit: 4 });
    expect(await turn.tail({ limit: Infinity })).toEqual({
      messages: ["1", "2", "3", "4", "5"].map(message),
      total: 5,
    });
    expect(await turn.tail()).toEqual({ messages: ["4", "5"].map(message), total: 5, limit: 2 });
    expect(calls).toEqual(["lockSessionReadingTail 2", "getMessageTail", "getMessages"]);
    await turn.release();
    // A store without a native tail read gives the whole history, whatever the limit.
    const six = sixMethodStore();
    await six.setMessages("s", ["1", "2", "3"].map(message));
    const plain = await backendOf(six).openTurn("s", { timeoutMs: 0, tailLimit: 1 });
    expect(await plain.tail({ limit: 2 })).toEqual({ messages: ["1", "2", "3"].map(message), total: 3 });
  });

  it("defers the user message's sync to the last append, which releases the lock with it", async () => {
    const { store, inner, calls } = foldingStore();
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, tailLimit: 10, releaseWithLast: true });
    await turn.append([message("u")]);
    await turn.append([message("a")], { last: true });
    await turn.release();
    expect(calls).toEqual([
      "lockSessionReadingTail 10",
      "appendMessagesDeferringSync u",
      "appendMessagesAndUnlock a",
      "release",
    ]);
    expect(ids(await inner.getMessages("s"))).toEqual(["u", "a"]);
  });

  it("keeps the lock past the last append without releaseWithLast, and syncs when the last append has nothing left", async () => {
    const { store, calls } = foldingStore();
    const adapted = backendOf(store);
    const held = await adapted.openTurn("s", { timeoutMs: 0 });
    await held.append([message("u")]);
    await held.append([message("a")], { last: true });
    await held.release();
    const empty = await adapted.openTurn("t", { timeoutMs: 0 });
    await empty.append([message("u")]);
    await empty.append([], { last: true });
    await empty.release();
    expect(calls).toEqual([
      "lockSession",
      "appendMessagesDeferringSync u",
      "appendMessages a",
      "release",
      "lockSession",
      "appendMessagesDeferringSync u",
      "syncAppends",
      "release",
    ]);
  });

  it("never defers on a store that cannot sync later", async () => {
    const { store, calls } = foldingStore({ deferring: false });
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0 });
    await turn.append([message("u")]);
    await turn.append([], { last: true });
    await turn.release();
    expect(calls).toEqual(["lockSession", "appendMessages u", "release"]);
  });

  it("a failed last append is a StoreError; release still syncs what was deferred, then unlocks", async () => {
    const { store, calls, failAppends } = foldingStore();
    const turn = await backendOf(store).openTurn("s", { timeoutMs: 0, releaseWithLast: true });
    await turn.append([message("u")]);
    failAppends();
    const error = await turn.append([message("a")], { last: true }).catch((thrown: unknown) => thrown);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: "appendMessages", sessionId: "s" });
    await turn.release();
    expect(calls.slice(-2)).toEqual(["syncAppends", "release"]);
  });
});
