import { afterAll, describe, expect, it } from "./vitest-api";
import type { AgentMessage } from "../messages/agent-message";
import type { MemoryStore } from "../stores/memory-store";
import { isKeyValueStore, type KeyValueFacts, type RichFacts } from "./conformance-facts";
import {
  conversation,
  fact,
  message,
  sessionId,
  sortFacts,
  write,
  type OptionalStoreMethod,
} from "./conformance-fixtures";
import { expectSameRichMessages, richMessages } from "./conformance-parts";
import { describeOptionalCapabilities } from "./conformance-optional";
import { describeContextReports } from "./conformance-context-reports";
import { describeDeleteMessagesFrom } from "./conformance-delete";
import { describeSessionOwnership } from "./conformance-sessions";
import { describeThreads } from "./conformance-threads";

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

export type { OptionalStoreMethod } from "./conformance-fixtures";

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
 * `getMessageTail`, session metadata, `entries`, `prune`, summaries, `deleteMessagesFrom`) is tested when the
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
  const required = (method: OptionalStoreMethod) =>
    options.requireCapabilities === "all" || (options.requireCapabilities ?? []).includes(method);
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
            throw new Error(
              `${name} has no ${missingRequired.join(", ")}, which requireCapabilities says it must have.`,
            );
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
        const large = "x".repeat(largeLength - 10) + 'é🙂\u0000\n"\\';
        const messages: AgentMessage[] = [
          {
            id: "u1",
            role: "user",
            content: "héllo wörld — 你好 — 🙂 — \u2028 — \ud83d\ude00 — 'quotes' \"double\" \\ back",
            timestamp: 2 ** 53 - 1,
          },
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
          {
            id: "t1",
            role: "tool",
            toolCallId: "call_1",
            name: "lookup",
            content: JSON.stringify({ ok: true }),
            timestamp: 3,
          },
          { id: "a2", role: "assistant", content: large, timestamp: 4 },
          { role: "user", content: "a message without id or timestamp" },
        ];
        await store.setMessages(id, messages);
        expect(await store.getMessages(id)).toEqual(messages);
      });

      test("round-trips content parts losslessly: bytes, data: URLs, URLs, files, reasoning, tool images", async (store) => {
        const id = sessionId();
        await store.setMessages(id, richMessages());
        expectSameRichMessages(await store.getMessages(id), richMessages());
        // Appended and read as a tail too (stores parse those paths apart).
        const other = sessionId();
        await write(store, other, [message("before", "rich-before"), ...richMessages()]);
        expectSameRichMessages((await store.getMessages(other)).slice(1), richMessages());
        if (store.getMessageTail) {
          expectSameRichMessages((await store.getMessageTail(other, 4)).messages, richMessages());
        }
        await store.clearMessages(id);
        await store.clearMessages(other);
      });

      test("keeps parts' bytes apart from the caller's: changing given or read bytes changes nothing stored", async (store) => {
        const id = sessionId();
        const given = richMessages();
        await store.setMessages(id, given);
        ((given[0]!.content as { image: Uint8Array }[])[1]!.image as Uint8Array).fill(0);
        const read = await store.getMessages(id);
        ((read[0]!.content as { image: Uint8Array }[])[1]!.image as Uint8Array).fill(0);
        expectSameRichMessages(await store.getMessages(id), richMessages());
        await store.clearMessages(id);
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
        expect(sortFacts(await rich.getFacts(scope))).toEqual([
          fact("city", "Zürich 🙂", "m1"),
          fact("language", "TypeScript"),
        ]);
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

    describeOptionalCapabilities(describe, capability, { writers, turnsPerWriter });
    describeContextReports(describe, capability);
    describeDeleteMessagesFrom(describe, capability);
    describeSessionOwnership(describe, capability);
    describeThreads(describe, capability);
  });
}
