import { afterAll, describe, expect, it } from "./vitest-api";
import type { AgentMessage } from "../messages/agent-message";
import type { MemoryStore, SummaryRecord } from "../stores/memory-store";
import { fact, isKeyValueStore, sortFacts, type KeyValueFacts, type RichFacts } from "./store-facts";

/** Options of {@link testMemoryStore}. */
export interface TestMemoryStoreOptions {
  /** Called after each test with the store the factory made (close clients, delete files). */
  teardown?: (store: MemoryStore) => void | Promise<void>;
  /** Called once after the whole suite. */
  afterAll?: () => void | Promise<void>;
  /** Writers in the concurrent-append test. @default 8 */
  concurrentWriters?: number;
  /** Turns each writer appends in the concurrent-append test. @default 10 */
  turnsPerWriter?: number;
  /** Characters of the large message in the round-trip test. @default 1_000_000 */
  largeContentLength?: number;
  /** Timeout of each test in ms. @default 30_000 */
  timeout?: number;
  /**
   * Optional methods the store must have: their tests fail when one is missing, instead of being
   * reported as skipped. `"all"` requires every optional capability (the built-in stores use it).
   * @default []
   */
  requireCapabilities?: "all" | readonly OptionalStoreMethod[];
}

/** The optional methods of `MemoryStore`. */
export type OptionalStoreMethod = Exclude<keyof MemoryStore, "getMessages" | "setMessages" | "clearMessages" | "getFacts" | "setFact" | "deleteFact">;

/**
 * The conformance suite of the `MemoryStore` contract. Call it in a vitest test file with a
 * factory that returns a ready store; it declares one `describe` block of tests:
 *
 * ```ts
 * import { testMemoryStore } from "agentcore/testing";
 * testMemoryStore("MyStore", () => new MyStore({ ... }));
 * ```
 *
 * The six required methods are always tested. Each optional capability (`appendMessages`,
 * `getMessageTail`, session metadata, `entries`, `prune`, summaries) is tested when the
 * store has it; its tests are reported as skipped when it does not, or fail when the capability is
 * listed in `requireCapabilities`. Every test uses fresh random session ids, so a factory may return stores that
 * share one database; `prune` tests only look at the sessions they created.
 */
export function testMemoryStore(
  name: string,
  factory: () => MemoryStore | Promise<MemoryStore>,
  options: TestMemoryStoreOptions = {},
): void {
  const timeout = options.timeout ?? 30_000;
  const writers = options.concurrentWriters ?? 8;
  const turnsPerWriter = options.turnsPerWriter ?? 10;
  const largeLength = options.largeContentLength ?? 1_000_000;

  /** Runs `body` with a fresh store and tears it down afterwards. */
  const withStore = (body: (store: MemoryStore) => Promise<void>) => async () => {
    const store = await factory();
    try {
      await body(store);
    } finally {
      await options.teardown?.(store);
    }
  };
  const required = (method: OptionalStoreMethod) => options.requireCapabilities === "all" || (options.requireCapabilities ?? []).includes(method);
  /**
   * A test of an optional capability: runs when the store has every method named. A missing one
   * fails the test when it is required, and otherwise reports the test as skipped (never as passed).
   */
  const capability = (methods: OptionalStoreMethod[], title: string, body: (store: MemoryStore) => Promise<void>) =>
    it(
      `${title} [${methods.join(", ")}]`,
      async (context) => {
        const store = await factory();
        try {
          const missing = methods.filter((method) => typeof store[method] !== "function");
          const missingRequired = missing.filter(required);
          if (missingRequired.length > 0) {
            throw new Error(`${name} has no ${missingRequired.join(", ")}, which requireCapabilities says it must have.`);
          }
          if (missing.length > 0) {
            context.skip(`${name} has no ${missing.join(", ")}`);
            return;
          }
          await body(store);
        } finally {
          await options.teardown?.(store);
        }
      },
      timeout,
    );
  const test = (title: string, body: (store: MemoryStore) => Promise<void>) => it(title, withStore(body), timeout);

  describe(`MemoryStore conformance: ${name}`, () => {
    if (options.afterAll) afterAll(options.afterAll);

    describe("messages (required)", () => {
      test("an unknown session has no messages", async (store) => {
        expect(await store.getMessages(sessionId())).toEqual([]);
      });

      test("keeps the order of setMessages", async (store) => {
        const id = sessionId();
        const messages = conversation(20);
        await store.setMessages(id, messages);
        expect(await store.getMessages(id)).toEqual(messages);
      });

      test("setMessages replaces the history", async (store) => {
        const id = sessionId();
        await store.setMessages(id, conversation(6));
        const replacement = conversation(2, "second");
        await store.setMessages(id, replacement);
        expect(await store.getMessages(id)).toEqual(replacement);
        await store.setMessages(id, []);
        expect(await store.getMessages(id)).toEqual([]);
      });

      test("clearMessages deletes one session's history only", async (store) => {
        const [a, b] = [sessionId(), sessionId()];
        await store.setMessages(a, conversation(4));
        await store.setMessages(b, conversation(2));
        await store.clearMessages(a);
        expect(await store.getMessages(a)).toEqual([]);
        expect(await store.getMessages(b)).toEqual(conversation(2));
        await store.clearMessages(sessionId()); // unknown session: no error
      });

      test("isolates sessions whose ids look alike or look like paths, globs or key separators", async (store) => {
        const base = sessionId();
        const ids = [
          base,
          `${base}bar`,
          `${base}:x`,
          `${base}/x`,
          `../${base}`,
          `${base}*`,
          `${base}?`,
          `${base}{x}`,
          `${base} `,
          `${base}%2F`,
          `${base}-ünïcødé-会话-🙂`,
          `user:1:${base}`,
        ];
        for (const [index, id] of ids.entries()) await store.setMessages(id, [message(`only in ${index}`, `${index}`)]);
        for (const [index, id] of ids.entries()) {
          expect(await store.getMessages(id)).toEqual([message(`only in ${index}`, `${index}`)]);
        }
        for (const id of ["*", "../x", "a:b", "user:1", "."]) {
          // Generic ids other tests (or other users) might share: write, read back, clean up.
          const value = [message(`generic ${id} ${base}`, base)];
          await store.setMessages(id, value);
          expect(await store.getMessages(id)).toEqual(value);
          await store.clearMessages(id);
          expect(await store.getMessages(id)).toEqual([]);
        }
        for (const id of ids) await store.clearMessages(id);
      });

      test("round-trips messages deep-equal: unicode, large contents, tool calls, big numbers", async (store) => {
        const id = sessionId();
        const large = "x".repeat(largeLength - 10) + "é🙂\u0000\n\"\\";
        const messages: AgentMessage[] = [
          { id: "u1", role: "user", content: "héllo wörld — 你好 — 🙂 — \u2028 — \ud83d\ude00 — 'quotes' \"double\" \\ back", timestamp: 2 ** 53 - 1 },
          {
            id: "a1",
            role: "assistant",
            content: "",
            timestamp: 2 ** 53,
            toolCalls: [
              {
                id: "call_1",
                name: "lookup",
                arguments: {
                  city: "Zürich",
                  nested: { list: [1, 2.5, -3, null, true, "s"], deep: { deeper: { deepest: [] } } },
                  big: 2 ** 53,
                  negative: -(2 ** 53),
                  float: 0.1 + 0.2,
                  empty: {},
                },
              },
            ],
          },
          { id: "t1", role: "tool", toolCallId: "call_1", name: "lookup", content: JSON.stringify({ ok: true }), timestamp: 3 },
          { id: "a2", role: "assistant", content: large, timestamp: 4 },
          { role: "user", content: "a message without id or timestamp" },
        ];
        await store.setMessages(id, messages);
        expect(await store.getMessages(id)).toEqual(messages);
      });

      test("returns copies: changing what it returned or was given does not change what is stored", async (store) => {
        const id = sessionId();
        const messages = conversation(2);
        await store.setMessages(id, messages);
        messages[0]!.content = "changed after setMessages";
        const read = await store.getMessages(id);
        expect(read).toEqual(conversation(2));
        read[1]!.content = "changed after getMessages";
        read.push(message("pushed"));
        expect(await store.getMessages(id)).toEqual(conversation(2));
      });
    });

    describe("facts (required)", () => {
      // Either fact shape of MemoryStore: the rich one (Fact[], setFact(scope, fact)) or the
      // AgentCore document's key → value one (Record<string, string>, setFact(sessionId, key, value)).
      test("creates, lists, replaces and deletes facts per scope", async (store) => {
        const [scope, other] = [sessionId(), sessionId()];
        if (await isKeyValueStore(store, scope)) {
          const kv = store as unknown as KeyValueFacts;
          await kv.setFact(scope, "language", "TypeScript");
          await kv.setFact(scope, "city", "Zürich 🙂");
          await kv.setFact(other, "language", "Rust");
          expect({ ...(await kv.getFacts(scope)) }).toEqual({ city: "Zürich 🙂", language: "TypeScript" });
          await kv.setFact(scope, "language", "Go");
          expect({ ...(await kv.getFacts(scope)) }).toEqual({ city: "Zürich 🙂", language: "Go" });
          await kv.deleteFact(scope, "language");
          expect({ ...(await kv.getFacts(scope)) }).toEqual({ city: "Zürich 🙂" });
          await kv.deleteFact(scope, "language");
          expect({ ...(await kv.getFacts(other)) }).toEqual({ language: "Rust" });
          await kv.deleteFact(scope, "city");
          await kv.deleteFact(other, "language");
          return;
        }
        const rich = store as unknown as RichFacts;
        expect(await rich.getFacts(scope)).toEqual([]);
        await rich.setFact(scope, fact("language", "TypeScript"));
        await rich.setFact(scope, fact("city", "Zürich 🙂", "m1"));
        await rich.setFact(other, fact("language", "Rust"));
        expect(sortFacts(await rich.getFacts(scope))).toEqual([fact("city", "Zürich 🙂", "m1"), fact("language", "TypeScript")]);
        const replaced = { ...fact("language", "Go"), updatedAt: 5_000 };
        await rich.setFact(scope, replaced);
        expect(sortFacts(await rich.getFacts(scope))).toEqual([fact("city", "Zürich 🙂", "m1"), replaced]);
        expect(await rich.deleteFact(scope, "language")).not.toBe(false);
        expect(await rich.getFacts(scope)).toEqual([fact("city", "Zürich 🙂", "m1")]);
        expect(await rich.deleteFact(scope, "language")).not.toBe(true);
        expect(await rich.getFacts(other)).toEqual([fact("language", "Rust")]);
        await rich.deleteFact(scope, "city");
        await rich.deleteFact(other, "language");
      });

      test("keeps facts of look-alike scopes apart and apart from messages", async (store) => {
        const scope = sessionId();
        const scopes = [scope, `${scope}bar`, `${scope}:k`];
        const keyValue = await isKeyValueStore(store, scope);
        for (const [index, id] of scopes.entries()) {
          if (keyValue) await (store as unknown as KeyValueFacts).setFact(id, "k", String(index));
          else await (store as unknown as RichFacts).setFact(id, fact("k", String(index)));
        }
        await store.setMessages(scope, conversation(2));
        for (const [index, id] of scopes.entries()) {
          const read = await store.getFacts(id);
          expect(keyValue ? { ...read } : read).toEqual(keyValue ? { k: String(index) } : [fact("k", String(index))]);
        }
        expect(await store.getMessages(scope)).toEqual(conversation(2));
        for (const id of scopes) await store.deleteFact(id, "k");
      });
    });

    describe("appendMessages (optional)", () => {
      capability(["appendMessages"], "appends in order after what is stored", async (store) => {
        const id = sessionId();
        const [first, second] = [conversation(2, "first"), conversation(4, "second")];
        await store.appendMessages!(id, first);
        await store.appendMessages!(id, second);
        expect(await store.getMessages(id)).toEqual([...first, ...second]);
        await store.appendMessages!(id, []);
        expect(await store.getMessages(id)).toEqual([...first, ...second]);
      });

      capability(["appendMessages"], "is idempotent by message id", async (store) => {
        const id = sessionId();
        const turn = conversation(2, "turn");
        await store.appendMessages!(id, turn);
        await store.appendMessages!(id, turn); // a retried append
        const next = conversation(2, "next");
        await store.appendMessages!(id, [turn[1]!, ...next]); // overlapping retry
        await store.appendMessages!(id, [next[0]!, next[0]!]);
        expect(await store.getMessages(id)).toEqual([...turn, ...next]);
        // Ids are per session: the same id in another session is a different message.
        const other = sessionId();
        await store.appendMessages!(other, turn);
        expect(await store.getMessages(other)).toEqual(turn);
      });

      capability(["appendMessages"], "appends after setMessages and starts over after clearMessages", async (store) => {
        const id = sessionId();
        await store.setMessages(id, conversation(2, "set"));
        await store.appendMessages!(id, conversation(2, "appended"));
        expect(await store.getMessages(id)).toEqual([...conversation(2, "set"), ...conversation(2, "appended")]);
        await store.clearMessages(id);
        await store.appendMessages!(id, conversation(2, "set"));
        expect(await store.getMessages(id)).toEqual(conversation(2, "set"));
      });

      capability(["appendMessages"], "loses and duplicates nothing under concurrent appends, keeping each writer's order", async (store) => {
        const id = sessionId();
        const other = sessionId();
        await Promise.all(
          Array.from({ length: writers }, async (_, writer) => {
            for (let turn = 0; turn < turnsPerWriter; turn++) {
              const messages = [
                message(`w${writer} t${turn} user`, `w${writer}-t${turn}-u`, "user"),
                message(`w${writer} t${turn} assistant`, `w${writer}-t${turn}-a`, "assistant"),
              ];
              await store.appendMessages!(id, messages);
              if (turn % 3 === 0) await store.appendMessages!(id, messages); // retries interleave too
              if (writer === 0) await store.appendMessages!(other, [message(`other ${turn}`, `o${turn}`)]);
            }
          }),
        );
        const stored = await store.getMessages(id);
        expect(stored).toHaveLength(writers * turnsPerWriter * 2);
        expect(new Set(stored.map((entry) => entry.id)).size).toBe(stored.length);
        for (let writer = 0; writer < writers; writer++) {
          const own = stored.filter((entry) => entry.id!.startsWith(`w${writer}-`)).map((entry) => entry.id);
          expect(own).toEqual(Array.from({ length: turnsPerWriter }, (_, turn) => [`w${writer}-t${turn}-u`, `w${writer}-t${turn}-a`]).flat());
        }
        // Each turn stays whole: its two messages are adjacent.
        for (let index = 0; index < stored.length; index += 2) {
          expect(stored[index + 1]!.id).toBe(stored[index]!.id!.replace(/-u$/, "-a"));
        }
        expect(await store.getMessages(other)).toHaveLength(turnsPerWriter);
      });
    });

    describe("getMessageTail (optional)", () => {
      capability(["getMessageTail"], "returns the last messages, oldest first, and the session's size", async (store) => {
        const id = sessionId();
        const messages = conversation(10);
        if (store.appendMessages) {
          await store.appendMessages(id, messages.slice(0, 4));
          await store.appendMessages(id, messages.slice(4));
        } else {
          await store.setMessages(id, messages);
        }
        expect(await store.getMessageTail!(id, 3)).toEqual({ messages: messages.slice(7), total: 10 });
        expect(await store.getMessageTail!(id, 10)).toEqual({ messages, total: 10 });
        expect(await store.getMessageTail!(id, 100)).toEqual({ messages, total: 10 });
        expect(await store.getMessageTail!(id, Infinity)).toEqual({ messages, total: 10 });
        expect(await store.getMessageTail!(id, 2.7)).toEqual({ messages: messages.slice(8), total: 10 });
        expect(await store.getMessageTail!(id, 0)).toEqual({ messages: [], total: 10 });
        expect(await store.getMessageTail!(sessionId(), 5)).toEqual({ messages: [], total: 0 });
      });
      capability(["getMessageTail"], "follows setMessages, appends and clearMessages", async (store) => {
        const id = sessionId();
        const messages = conversation(12);
        await store.setMessages(id, messages.slice(0, 6));
        expect(await store.getMessageTail!(id, 2)).toEqual({ messages: messages.slice(4, 6), total: 6 });
        if (store.appendMessages) {
          await store.appendMessages(id, messages.slice(6));
          // A retried append is skipped by id, so the size does not grow.
          await store.appendMessages(id, messages.slice(10));
          expect(await store.getMessageTail!(id, 4)).toEqual({ messages: messages.slice(8), total: 12 });
        }
        await store.setMessages(id, messages.slice(0, 3));
        expect(await store.getMessageTail!(id, 5)).toEqual({ messages: messages.slice(0, 3), total: 3 });
        await store.clearMessages(id);
        expect(await store.getMessageTail!(id, 5)).toEqual({ messages: [], total: 0 });
      });
      capability(["getMessageTail", "appendMessages"], "agrees with getMessages under concurrent appends", async (store) => {
        const id = sessionId();
        const turns = Array.from({ length: writers }, (_, writer) =>
          conversation(2).map((message, index) => ({ ...message, id: `w${writer}-${index}` })),
        );
        await Promise.all(turns.map((turn) => store.appendMessages!(id, turn)));
        const all = await store.getMessages(id);
        expect(all).toHaveLength(writers * 2);
        expect(await store.getMessageTail!(id, 5)).toEqual({ messages: all.slice(-5), total: all.length });
      });
      capability(["getMessageTail"], "rejects a negative or non-numeric limit with an InvalidArgumentError", async (store) => {
        const id = sessionId();
        await store.setMessages(id, conversation(2));
        for (const limit of [-1, Number.NaN, "3" as unknown as number]) {
          await expect(store.getMessageTail!(id, limit)).rejects.toMatchObject({ name: "InvalidArgumentError", argument: "limit" });
        }
      });
      capability(["getMessageTail"], "rounds a fractional limit down and reads a huge or infinite one as the whole history", async (store) => {
        const id = sessionId();
        const messages = conversation(6);
        await store.setMessages(id, messages);
        expect(await store.getMessageTail!(id, 2.7)).toEqual({ messages: messages.slice(4), total: 6 });
        for (const limit of [1e21, Number.MAX_VALUE, Infinity]) expect(await store.getMessageTail!(id, limit)).toEqual({ messages, total: 6 });
      });
    });

    describe("session metadata (optional)", () => {
      capability(["getSession", "updateSession"], "records createdAt, accessedAt, messageCount, agentName and tags", async (store) => {
        const id = sessionId();
        expect(await store.getSession!(id)).toBeUndefined();
        const before = Date.now();
        await write(store, id, conversation(4));
        const first = await store.getSession!(id);
        expect(first).toMatchObject({ sessionId: id, messageCount: 4 });
        expect(first!.createdAt).toBeGreaterThanOrEqual(before - 1000);
        expect(first!.accessedAt).toBeGreaterThanOrEqual(first!.createdAt);
        await store.updateSession!(id, { agentName: "assistant", tags: ["a", "b"] });
        await new Promise((resolve) => setTimeout(resolve, 5));
        await write(store, id, conversation(2, "later"));
        const second = await store.getSession!(id);
        expect(second).toMatchObject({ sessionId: id, messageCount: 6, agentName: "assistant", tags: ["a", "b"], createdAt: first!.createdAt });
        // A write must move accessedAt: prune compares against it.
        expect(second!.accessedAt).toBeGreaterThan(first!.accessedAt);
        await store.updateSession!(id, { tags: ["c"] });
        expect(await store.getSession!(id)).toMatchObject({ agentName: "assistant", tags: ["c"] });
        await store.clearMessages(id);
        expect(await store.getSession!(id)).toBeUndefined();
      });

      capability(["entries"], "lists sessions with their metadata", async (store) => {
        const [a, b] = [sessionId(), `${sessionId()}:b`];
        await write(store, a, conversation(2));
        await write(store, b, conversation(4));
        const entries = (await store.entries!()).filter((entry) => entry.sessionId === a || entry.sessionId === b);
        expect(entries.map((entry) => [entry.sessionId, entry.messageCount]).sort()).toEqual([[a, 2], [b, 4]].sort());
        for (const entry of entries) {
          expect(typeof entry.createdAt).toBe("number");
          expect(typeof entry.accessedAt).toBe("number");
        }
        await store.clearMessages(a);
        expect((await store.entries!()).some((entry) => entry.sessionId === a)).toBe(false);
        await store.clearMessages(b);
      });
    });

    describe("prune (optional)", () => {
      capability(["prune"], "deletes sessions not written since olderThan and keeps the rest", async (store) => {
        const [old, fresh, revived] = [sessionId(), sessionId(), sessionId()];
        await write(store, old, conversation(2));
        await write(store, revived, conversation(2));
        await new Promise((resolve) => setTimeout(resolve, 30));
        const cutoff = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 30));
        await write(store, fresh, conversation(2));
        // Created before the cutoff, written again after it: in use, so it stays.
        await write(store, revived, conversation(2, "later"));
        const pruned = await store.prune!({ olderThan: cutoff });
        expect(pruned).toContain(old);
        expect(pruned).not.toContain(fresh);
        expect(pruned).not.toContain(revived);
        expect(await store.getMessages(old)).toEqual([]);
        expect(await store.getMessages(fresh)).toEqual(conversation(2));
        expect(await store.getMessages(revived)).toEqual([...conversation(2), ...conversation(2, "later")]);
        await store.clearMessages(fresh);
        await store.clearMessages(revived);
      });
    });

    describe("summaries (optional)", () => {
      capability(["getSummaries", "saveSummary"], "keeps summaries in order, idempotent by id, cleared with the session", async (store) => {
        const id = sessionId();
        expect(await store.getSummaries!(id)).toEqual([]);
        await write(store, id, conversation(6));
        const first = summary("s1", "first 🙂", 4);
        const second = summary("s2", "second", 6);
        await store.saveSummary!(id, first);
        await store.saveSummary!(id, second);
        await store.saveSummary!(id, first);
        expect(await store.getSummaries!(id)).toEqual([first, second]);
        expect(await store.getSummaries!(sessionId())).toEqual([]);
        await store.clearMessages(id);
        expect(await store.getSummaries!(id)).toEqual([]);
      });
    });
  });
}

/** A custom store with only the six methods has no atomic append: write with setMessages. */
async function write(store: MemoryStore, id: string, messages: AgentMessage[]): Promise<void> {
  if (store.appendMessages) await store.appendMessages(id, messages);
  else await store.setMessages(id, [...(await store.getMessages(id)), ...messages]);
}

let counter = 0;
function sessionId(): string {
  counter += 1;
  return `conformance-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${counter}`;
}

function message(content: string, id?: string, role: "user" | "assistant" = "user"): AgentMessage {
  return { ...(id === undefined ? {} : { id }), role, content, timestamp: 1_700_000_000_000 };
}

function conversation(count: number, label = "message"): AgentMessage[] {
  return Array.from({ length: count }, (_, index) =>
    message(`${label} ${index}`, `${label}-${index}`, index % 2 === 0 ? "user" : "assistant"),
  );
}

function summary(id: string, content: string, messageCount: number): SummaryRecord {
  return {
    id,
    content,
    fromMessageId: "message-0",
    toMessageId: `message-${messageCount - 1}`,
    messageCount,
    model: "mock/summariser",
    createdAt: 1_700_000_000_000,
    tokenCount: 12,
  };
}
