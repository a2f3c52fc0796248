// The optional-capability tests of the store conformance suite, declared by testMemoryStore.
import type { MemoryStore } from "../stores/memory-store";
import { conversation, message, sessionId, summary, write, type OptionalStoreMethod } from "./conformance-fixtures";
import { expect } from "./vitest-api";

/** Declares a test of an optional capability (see `testMemoryStore`). */
export type CapabilityTest = (
  methods: OptionalStoreMethod[],
  title: string,
  body: (store: MemoryStore) => Promise<void>,
) => void;

/** Declares the tests of every optional capability, each through `capability`. */
export function describeOptionalCapabilities(
  describe: (title: string, body: () => void) => void,
  capability: CapabilityTest,
  settings: { writers: number; turnsPerWriter: number },
): void {
  const { writers, turnsPerWriter } = settings;
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

    capability(
      ["appendMessages"],
      "loses and duplicates nothing under concurrent appends, keeping each writer's order",
      async (store) => {
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
          expect(own).toEqual(
            Array.from({ length: turnsPerWriter }, (_, turn) => [
              `w${writer}-t${turn}-u`,
              `w${writer}-t${turn}-a`,
            ]).flat(),
          );
        }
        // Each turn stays whole: its two messages are adjacent.
        for (let index = 0; index < stored.length; index += 2) {
          expect(stored[index + 1]!.id).toBe(stored[index]!.id!.replace(/-u$/, "-a"));
        }
        expect(await store.getMessages(other)).toHaveLength(turnsPerWriter);
      },
    );
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
    capability(
      ["getMessageTail", "appendMessages"],
      "agrees with getMessages under concurrent appends",
      async (store) => {
        const id = sessionId();
        const turns = Array.from({ length: writers }, (_, writer) =>
          conversation(2).map((message, index) => ({ ...message, id: `w${writer}-${index}` })),
        );
        await Promise.all(turns.map((turn) => store.appendMessages!(id, turn)));
        const all = await store.getMessages(id);
        expect(all).toHaveLength(writers * 2);
        expect(await store.getMessageTail!(id, 5)).toEqual({ messages: all.slice(-5), total: all.length });
      },
    );
    capability(
      ["getMessageTail"],
      "rejects a negative or non-numeric limit with an InvalidArgumentError",
      async (store) => {
        const id = sessionId();
        await store.setMessages(id, conversation(2));
        for (const limit of [-1, Number.NaN, "3" as unknown as number]) {
          await expect(store.getMessageTail!(id, limit)).rejects.toMatchObject({
            name: "InvalidArgumentError",
            argument: "limit",
          });
        }
      },
    );
    capability(
      ["getMessageTail"],
      "rounds a fractional limit down and reads a huge or infinite one as the whole history",
      async (store) => {
        const id = sessionId();
        const messages = conversation(6);
        await store.setMessages(id, messages);
        expect(await store.getMessageTail!(id, 2.7)).toEqual({ messages: messages.slice(4), total: 6 });
        for (const limit of [1e21, Number.MAX_VALUE, Infinity])
          expect(await store.getMessageTail!(id, limit)).toEqual({ messages, total: 6 });
      },
    );
  });

  describe("session metadata (optional)", () => {
    capability(
      ["getSession", "updateSession"],
      "records createdAt, accessedAt, messageCount, agentName and tags",
      async (store) => {
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
        expect(second).toMatchObject({
          sessionId: id,
          messageCount: 6,
          agentName: "assistant",
          tags: ["a", "b"],
          createdAt: first!.createdAt,
        });
        // A write must move accessedAt: prune compares against it.
        expect(second!.accessedAt).toBeGreaterThan(first!.accessedAt);
        await store.updateSession!(id, { tags: ["c"] });
        expect(await store.getSession!(id)).toMatchObject({ agentName: "assistant", tags: ["c"] });
        await store.clearMessages(id);
        expect(await store.getSession!(id)).toBeUndefined();
      },
    );

    capability(["entries"], "lists sessions with their metadata", async (store) => {
      const [a, b] = [sessionId(), `${sessionId()}:b`];
      await write(store, a, conversation(2));
      await write(store, b, conversation(4));
      const entries = (await store.entries!()).filter((entry) => entry.sessionId === a || entry.sessionId === b);
      expect(entries.map((entry) => [entry.sessionId, entry.messageCount]).sort()).toEqual(
        [
          [a, 2],
          [b, 4],
        ].sort(),
      );
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
    capability(
      ["getSummaries", "saveSummary"],
      "keeps summaries in order, idempotent by id, cleared with the session",
      async (store) => {
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
      },
    );

    capability(
      ["getSummaries", "saveSummary"],
      "reads only the newest summaries with { last }, oldest first",
      async (store) => {
        const id = sessionId();
        await write(store, id, conversation(10));
        const records = [2, 4, 6, 8, 10].map((count) => summary(`s${count}`, `covers ${count}`, count));
        for (const record of records) await store.saveSummary!(id, record);
        const ignoresLast =
          "getSummaries(sessionId, { last }) must return only the newest `last` records, oldest first. A store that ignores `last` still works with the agent (it keeps the newest itself) but reads every record of the session each turn";
        expect(await store.getSummaries!(id, { last: 2 }), ignoresLast).toEqual(records.slice(3));
        expect(await store.getSummaries!(id, { last: 1 })).toEqual(records.slice(4));
        expect(await store.getSummaries!(id, { last: 2.7 })).toEqual(records.slice(3));
        expect(await store.getSummaries!(id, { last: 0 })).toEqual([]);
        expect(await store.getSummaries!(id, { last: 50 })).toEqual(records);
        expect(await store.getSummaries!(id, { last: Infinity })).toEqual(records);
        expect(await store.getSummaries!(id, {})).toEqual(records);
        expect(await store.getSummaries!(sessionId(), { last: 3 })).toEqual([]);
        for (const last of [-1, Number.NaN, "2"]) {
          await expect(store.getSummaries!(id, { last } as never)).rejects.toMatchObject({
            name: "InvalidArgumentError",
            argument: "last",
          });
        }
        await store.clearMessages(id);
      },
    );
  });
}
