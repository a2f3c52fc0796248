// UpstashRedisMemoryStore against a misbehaving server: a loopback fault proxy
// (test/helpers/http-fault-proxy.ts) in front of the REST bridge to the real local Redis. A late
// lock holder is fenced; a reply of the wrong shape, or none at all, is a StoreError naming the
// operation and the session, never a silent success or a hang.
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../../test/helpers/http-fault-proxy";
import { serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../../../test/helpers/upstash-rest-bridge";
import { Agent } from "../../agent/agent";
import { AbortError } from "../../errors/abort-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { expectLateWriterFenced } from "../__fixtures__/expect-late-writer-fenced";
import type { SummaryRecord } from "../memory-store";
import { UpstashRedisMemoryStore, type UpstashRedisMemoryStoreOptions } from "./index";

const available = await serviceAvailable("redis");
const runPrefix = `${uniqueName("agentcore-upstash-faults")}:`;
const bridge: UpstashRestBridge | undefined = available ? await startUpstashRestBridge() : undefined;
const proxy: FaultProxy | undefined = bridge ? await startFaultProxy(bridge.url) : undefined;
afterAll(async () => {
  await proxy?.close();
  await bridge?.close();
});

const message = (id: string): AgentMessage => ({ id, role: "user", content: `text of ${id}` });
const summary: SummaryRecord = {
  id: "sum",
  content: "s",
  fromMessageId: "1",
  toMessageId: "1",
  messageCount: 1,
  model: "mock/mock",
  createdAt: 1,
};

describe.skipIf(!available)("UpstashRedisMemoryStore faults", () => {
  let counter = 0;
  /** A store through the proxy (no client retries), on its own prefix unless one is given. */
  const newStore = (options: Partial<UpstashRedisMemoryStoreOptions> = {}) =>
    new UpstashRedisMemoryStore({
      client: new Redis({ url: proxy!.url, token: bridge!.token, retry: false, enableTelemetry: false }),
      prefix: `${runPrefix}${counter++}:`,
      ...options,
    });

  /** Every operation's failure: a StoreError naming it and the session, whose message matches `text`. */
  async function expectStoreErrors(
    attempts: [operation: string, sessionId: string | undefined, attempt: () => Promise<unknown>][],
    text: RegExp,
  ): Promise<void> {
    for (const [operation, sessionId, attempt] of attempts) {
      const error = await attempt().then(
        (value) => new Error(`${operation} resolved with ${JSON.stringify(value)}`),
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error), `${operation}: ${String(error)}`).toBe(true);
      expect(error).toMatchObject({ store: "UpstashRedisMemoryStore", operation, sessionId });
      expect((error as Error).message).toMatch(text);
      expect((error as Error).message).not.toMatch(/is not a function|Cannot read prop/);
    }
  }

  const writes = (store: UpstashRedisMemoryStore): [string, string, () => Promise<unknown>][] => [
    ["appendMessages", "s", () => store.appendMessages("s", [message("1")])],
    ["setMessages", "s", () => store.setMessages("s", [message("1")])],
    ["updateSession", "s", () => store.updateSession("s", { agentName: "a" })],
    ["saveSummary", "s", () => store.saveSummary("s", summary)],
    ["setFact", "session:s", () => store.setFact("session:s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 })],
  ];

  it("fences a late lock holder: its append, setMessages and context report are refused with SessionLockLostError, the history is the new holder's", async () => {
    const prefix = `${runPrefix}fence:`;
    await expectLateWriterFenced(newStore({ prefix, lockLeaseMs: 200 }), newStore({ prefix }));
  });

  it("a pipeline answered 200 with [] (or not a list) fails every write with a StoreError, and nothing is stored", async () => {
    const store = newStore();
    for (const body of [[], { result: "OK" }, [{ result: 1 }]]) {
      proxy!.setFault({ kind: "answer", body }, ["/pipeline"]);
      try {
        await expectStoreErrors(writes(store), /where .* was expected|not a list of one reply per command/);
      } finally {
        proxy!.setFault(undefined);
      }
    }
    expect(await store.getMessages("s")).toEqual([]);
    expect(await store.getSession("s")).toBeUndefined();
    expect(await store.getFacts("session:s")).toEqual([]);
  });

  it("a write whose answer is lost after it landed fails, and its retry stores it once", async () => {
    const store = newStore();
    proxy!.setFault({ kind: "rewrite", rewrite: () => [] }, ["/pipeline"]);
    try {
      await expectStoreErrors([writes(store)[0]!], /answered \[\] where a list of 2 replies/);
    } finally {
      proxy!.setFault(undefined);
    }
    await store.appendMessages("s", [message("1")]);
    expect(await store.getMessages("s")).toEqual([message("1")]);
  });

  it("a reply of the wrong shape fails every read (and the lock) with a StoreError, never an empty success", async () => {
    const store = newStore();
    await store.appendMessages("s", [message("1")]);
    await store.setFact("session:s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
    for (const body of [[{ result: [1] }], [], { result: [1] }]) {
      proxy!.setFault({ kind: "answer", body });
      try {
        await expectStoreErrors(
          [
            ["getMessages", "s", () => store.getMessages("s")],
            ["getMessageTail", "s", () => store.getMessageTail("s", 5)],
            ["getSession", "s", () => store.getSession("s")],
            ["getSummaries", "s", () => store.getSummaries("s")],
            ["getFacts", "session:s", () => store.getFacts("session:s")],
            ["deleteFact", "session:s", () => store.deleteFact("session:s", "k")],
            ["factScopes", undefined, () => store.factScopes()],
            ["entries", undefined, () => store.entries()],
            ["prune", undefined, () => store.prune({ olderThan: Date.now() + 1 })],
            ["lockSession", "s", () => store.lockSession("s", { timeoutMs: 0 })],
            ["clearMessages", "s", () => store.clearMessages("s")],
          ],
          /answered .* where .* was expected|not a list of one reply per command|without a result/,
        );
      } finally {
        proxy!.setFault(undefined);
      }
    }
    expect(await store.getMessages("s")).toEqual([message("1")]);
  });

  it("a server that never answers fails every operation after requestTimeoutMs, lockSession({ timeoutMs: 500 }) included", async () => {
    const store = newStore({ requestTimeoutMs: 300 });
    proxy!.setFault({ kind: "hang" });
    try {
      await expectStoreErrors(
        [
          ...writes(store),
          ["getMessageTail", "s", () => store.getMessageTail("s", 5)],
          ["getFacts", "session:s", () => store.getFacts("session:s")],
          ["entries", undefined, () => store.entries()],
          ["lockSession", "s", () => store.lockSession("s", { timeoutMs: 500 })],
        ],
        /no answer within 300 ms \(requestTimeoutMs\)/,
      );
      expect(proxy!.hanging).toBeGreaterThanOrEqual(9);
    } finally {
      proxy!.setFault(undefined);
    }
    // The server is back: the store works, and no lock was left behind by the take that timed out.
    await (await store.lockSession("s", { timeoutMs: 5_000 }))();
  });

  it("an abort signal stops a lock take the server never answers (the default 10 s timeout not reached), and an agent run with it", async () => {
    const store = newStore();
    proxy!.setFault({ kind: "hang" });
    try {
      const controller = new AbortController();
      const taking = store.lockSession("s", { timeoutMs: 60_000, signal: controller.signal });
      while (proxy!.hanging === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      await expect(taking).rejects.toSatisfy(AbortError.isInstance);

      const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "never" }] }), memoryStore: store });
      const run = new AbortController();
      const running = agent.run({ input: "hello", sessionId: "t", signal: run.signal });
      const before = proxy!.hanging;
      while (proxy!.hanging === before) await new Promise((resolve) => setTimeout(resolve, 5));
      run.abort();
      await expect(running).rejects.toSatisfy(AbortError.isInstance);
    } finally {
      proxy!.setFault(undefined);
    }
  });

  it("refuses a requestTimeoutMs that is not a positive number of ms", () => {
    for (const requestTimeoutMs of [0, -1, Number.NaN, "10s"])
      expect(() => newStore({ requestTimeoutMs: requestTimeoutMs as number })).toThrow(
        expect.objectContaining({ argument: "requestTimeoutMs" }),
      );
    expect(() => newStore({ requestTimeoutMs: 0 })).toThrow(InvalidArgumentError);
  });
});
