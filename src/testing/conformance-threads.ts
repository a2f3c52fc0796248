// The thread tests of the store conformance suite, declared by testMemoryStore: message ranges,
// titles, metadata and previews, the usage ledger and deleting a user's data (docs/threads.md).
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { backendOf } from "../stores/backend-of";
import type { MemoryStore } from "../stores/memory-store";
import { previewOf } from "../stores/session-preview";
import { addTotals, emptyTotals, type UsageTotals } from "../stores/usage-totals";
import { conversation, fact, message, sessionId, summary } from "./conformance-fixtures";
import type { CapabilityTest } from "./conformance-optional";
import { expect } from "./vitest-api";

/** Usage of `calls` model calls of `tokens` input and output tokens each. */
function spent(calls: number, tokens: number, cost = 0): UsageTotals {
  return {
    inputTokens: calls * tokens,
    outputTokens: calls * tokens,
    cachedInputTokens: calls,
    reasoningTokens: calls * 2,
    totalTokens: calls * tokens * 2,
    modelCalls: calls,
    cost,
  };
}

/** A run's turn for `userId`: `messages` appended with `usage`, as the agent does. */
async function turnAs(
  store: MemoryStore,
  session: string,
  userId: string | undefined,
  messages: AgentMessage[],
  usage?: UsageTotals,
): Promise<void> {
  const turn = await backendOf(store).openTurn(session, {
    timeoutMs: 5_000,
    tailLimit: 4,
    ...(userId === undefined ? {} : { userId }),
  });
  try {
    await turn.tail();
    await turn.append(messages, { last: true, ...(usage ? { usage } : {}) });
  } finally {
    await turn.release();
  }
}

function label(): string {
  return Math.random().toString(36).slice(2, 8);
}

/** Declares the thread tests through `capability`. */
export function describeThreads(describe: (title: string, body: () => void) => void, capability: CapabilityTest): void {
  describe("message ranges (optional)", () => {
    capability(["getMessageRange"], "reads any range as getMessages sliced", async (store) => {
      const id = sessionId();
      const history = conversation(23, "range");
      await turnAs(store, id, undefined, history);
      for (const [start, end] of [
        [0, 0],
        [0, 5],
        [5, 12],
        [20, 23],
        [20, 40],
        [23, 30],
        [40, 50],
        [0, Infinity],
      ] as const)
        expect(await store.getMessageRange!(id, start, end), `${start}..${end}`).toEqual(history.slice(start, end));
      expect(await store.getMessageRange!(sessionId(), 0, 10)).toEqual([]);
    });

    capability(["getMessageRange"], "refuses a bad range", async (store) => {
      for (const [start, end] of [
        [-1, 2],
        [3, 2],
        [1.5, 3],
        [Infinity, Infinity],
        [0, Number.NaN],
      ])
        await expect(store.getMessageRange!(sessionId(), start!, end!)).rejects.toSatisfy((error: unknown) =>
          InvalidArgumentError.isInstance(error),
        );
    });
  });

  describe("titles, metadata and previews (optional)", () => {
    capability(["listSessions"], "records a title and the app's metadata, and lists them", async (store) => {
      const [user, id] = [sessionId(), sessionId()];
      await turnAs(store, id, user, conversation(2, label()));
      await store.updateSession!(id, { title: "  Trip to Lisbon ", metadata: { pinned: true, tags: ["travel", 2] } });
      const entry = await store.getSession!(id);
      expect(entry).toMatchObject({ title: "Trip to Lisbon", metadata: { pinned: true, tags: ["travel", 2] } });
      const listed = (await store.listSessions!({ userId: user })).sessions[0];
      expect(listed).toMatchObject({ sessionId: id, title: "Trip to Lisbon", metadata: { pinned: true } });
      // Metadata is replaced whole; the title stays.
      await store.updateSession!(id, { metadata: { pinned: false } });
      expect(await store.getSession!(id)).toMatchObject({ title: "Trip to Lisbon", metadata: { pinned: false } });
    });

    capability(["listSessions"], "refuses a bad title or metadata, recording nothing", async (store) => {
      const id = sessionId();
      await turnAs(store, id, sessionId(), conversation(2, label()));
      const refused = async (update: Parameters<NonNullable<MemoryStore["updateSession"]>>[1]) =>
        await expect(store.updateSession!(id, update)).rejects.toSatisfy((error: unknown) =>
          InvalidArgumentError.isInstance(error),
        );
      await refused({ title: "" });
      await refused({ title: "x".repeat(201) });
      await refused({ metadata: { big: "x".repeat(17 * 1024) } });
      await refused({ metadata: JSON.parse('{"__proto__": {"admin": true}}') });
      await refused({ metadata: { when: new Date() } as never });
      await refused({ metadata: { n: Number.NaN } });
      const entry = await store.getSession!(id);
      expect(entry?.title).toBeUndefined();
      expect(entry?.metadata).toBeUndefined();
    });

    capability(["listSessions"], "a generated title never replaces one set by hand", async (store) => {
      const backend = backendOf(store);
      const [user, generated, byHand] = [sessionId(), sessionId(), sessionId()];
      await turnAs(store, generated, user, conversation(2, label()));
      await turnAs(store, byHand, user, conversation(2, label()));
      expect(await backend.titleSession(generated, "Generated")).toBe(true);
      expect(await backend.titleSession(generated, "Generated again")).toBe(false);
      expect((await store.getSession!(generated))?.title).toBe("Generated");
      await store.updateSession!(byHand, { title: "Mine" });
      expect(await backend.titleSession(byHand, "Generated")).toBe(false);
      expect((await store.getSession!(byHand))?.title).toBe("Mine");
      // A hand-set title replaces a generated one.
      await store.updateSession!(generated, { title: "Renamed" });
      expect((await store.getSession!(generated))?.title).toBe("Renamed");
      // No session is created by a title.
      const unknown = sessionId();
      expect(await backend.titleSession(unknown, "Ghost")).toBe(false);
      expect(await store.getSession!(unknown)).toBeUndefined();
    });

    capability(["listSessions", "deleteMessagesFrom"], "keeps the last text as the preview", async (store) => {
      const [user, id] = [sessionId(), sessionId()];
      const long = "A long answer ".repeat(30);
      const first = [message("How long is it?", `q-${label()}`), message(long, `a-${label()}`, "assistant")];
      await turnAs(store, id, user, first);
      expect((await store.getSession!(id))?.preview).toBe(previewOf(first));
      expect((await store.getSession!(id))?.preview).toHaveLength(200);
      const second = [message("And now?", `q2-${label()}`), message("Short.", `a2-${label()}`, "assistant")];
      await turnAs(store, id, user, second);
      expect((await store.listSessions!({ userId: user })).sessions[0]?.preview).toBe("Short.");
      // A cut takes the preview back to what is left.
      await store.deleteMessagesFrom!(id, second[0]!.id!);
      expect((await store.getSession!(id))?.preview).toBe(previewOf(first));
    });
  });

  describe("the usage ledger (optional)", () => {
    capability(["getUsage", "listSessions"], "adds a turn's usage with its messages, once", async (store) => {
      const [user, id] = [sessionId(), sessionId()];
      const turn = conversation(2, label());
      await turnAs(store, id, user, turn, spent(2, 100, 0.25));
      await turnAs(store, id, user, turn, spent(2, 100, 0.25)); // a retried turn: nothing new stored
      const next = conversation(2, label());
      await turnAs(store, id, user, next, spent(1, 50, 0.5));
      const expected = addTotals(spent(2, 100, 0.25), spent(1, 50, 0.5));
      expect(await store.getUsage!({ sessionId: id })).toEqual(expected);
      expect(await store.getUsage!({ userId: user })).toEqual(expected);
      expect((await store.getSession!(id))?.usage).toEqual(expected);
      expect((await store.listSessions!({ userId: user })).sessions[0]?.usage).toEqual(expected);
      expect(await store.getUsage!({ sessionId: sessionId() })).toEqual(emptyTotals());
      expect(await store.getUsage!({ userId: sessionId() })).toEqual(emptyTotals());
    });

    capability(["getUsage"], "sums a user's sessions under concurrent turns, and keeps users apart", async (store) => {
      const [alice, bob] = [sessionId(), sessionId()];
      const sessions = Array.from({ length: 6 }, () => sessionId());
      await Promise.all(
        sessions.map((id, index) =>
          turnAs(store, id, index % 2 === 0 ? alice : bob, conversation(2, label()), spent(index + 1, 10, 0.125)),
        ),
      );
      const sum = (indexes: number[]) =>
        indexes.reduce((total, index) => addTotals(total, spent(index + 1, 10, 0.125)), emptyTotals());
      expect(await store.getUsage!({ userId: alice })).toEqual(sum([0, 2, 4]));
      expect(await store.getUsage!({ userId: bob })).toEqual(sum([1, 3, 5]));
      // An ownerless session has a ledger of its own and no user's.
      const ownerless = sessionId();
      await turnAs(store, ownerless, undefined, conversation(2, label()), spent(1, 7));
      expect(await store.getUsage!({ sessionId: ownerless })).toEqual(spent(1, 7));
    });

    capability(["getUsage"], "counts a user's usage since a day", async (store) => {
      const user = sessionId();
      await turnAs(store, sessionId(), user, conversation(2, label()), spent(3, 10));
      expect(await store.getUsage!({ userId: user, since: Date.now() })).toEqual(spent(3, 10));
      expect(await store.getUsage!({ userId: user, since: 0 })).toEqual(spent(3, 10));
      expect(await store.getUsage!({ userId: user, since: Date.now() + 2 * 86_400_000 })).toEqual(emptyTotals());
      await expect(store.getUsage!({} as never)).rejects.toSatisfy((error: unknown) =>
        InvalidArgumentError.isInstance(error),
      );
    });

    capability(["getUsage", "listSessions"], "adds a generated title's usage", async (store) => {
      const [user, id] = [sessionId(), sessionId()];
      await turnAs(store, id, user, conversation(2, label()), spent(1, 10));
      expect(await backendOf(store).titleSession(id, "Titled", spent(1, 5))).toBe(true);
      expect(await store.getUsage!({ sessionId: id })).toEqual(addTotals(spent(1, 10), spent(1, 5)));
      expect(await store.getUsage!({ userId: user })).toEqual(addTotals(spent(1, 10), spent(1, 5)));
      // A title not written spends nothing in the ledger.
      expect(await backendOf(store).titleSession(id, "Again", spent(1, 5))).toBe(false);
      expect(await store.getUsage!({ sessionId: id })).toEqual(addTotals(spent(1, 10), spent(1, 5)));
    });
  });

  describe("deleting a user's data (optional)", () => {
    capability(
      ["deleteUserData", "listSessions", "getSummaries", "saveSummary"],
      "deletes everything of the user and nothing of anyone else, and is safe to repeat",
      async (store) => {
        const [alice, bob] = [sessionId(), sessionId()];
        const aliceSessions = [sessionId(), sessionId(), sessionId()];
        const bobSession = sessionId();
        for (const id of aliceSessions) {
          await turnAs(store, id, alice, conversation(4, label()), spent(1, 10));
          await store.saveSummary!(id, summary(`summary-${id}`, "what happened", 2));
          await store.setFact(`session:${id}`, fact("topic", "travel"));
        }
        await store.setFact(`user:${alice}`, fact("name", "Alice"));
        await store.setFact(`user:${alice}`, fact("city", "Lisbon"));
        await turnAs(store, bobSession, bob, conversation(2, label()), spent(1, 10));
        await store.setFact(`user:${bob}`, fact("name", "Bob"));
        const bobBefore = await store.getMessages(bobSession);

        const deleted = await store.deleteUserData!(alice);
        expect(deleted).toEqual({ sessions: 3, messages: 12, facts: 5 });
        for (const id of aliceSessions) {
          expect(await store.getMessages(id)).toEqual([]);
          expect(await store.getSession!(id)).toBeUndefined();
          expect(await store.getSummaries!(id)).toEqual([]);
          expect(await store.getFacts(`session:${id}`)).toEqual([]);
        }
        expect(await store.getFacts(`user:${alice}`)).toEqual([]);
        expect(await store.listSessions!({ userId: alice })).toEqual({ sessions: [] });
        if (store.getUsage) expect(await store.getUsage({ userId: alice })).toEqual(emptyTotals());
        // Bob's data is untouched.
        expect(await store.getMessages(bobSession)).toEqual(bobBefore);
        expect((await store.getFacts(`user:${bob}`)) as unknown[]).toHaveLength(1);
        expect((await store.listSessions!({ userId: bob })).sessions.map((entry) => entry.sessionId)).toEqual([
          bobSession,
        ]);
        if (store.getUsage) expect(await store.getUsage({ userId: bob })).toEqual(spent(1, 10));
        // A second call (a retry after a crash) finds nothing left.
        expect(await store.deleteUserData!(alice)).toEqual({ sessions: 0, messages: 0, facts: 0 });
        // The user may start over: a new session of theirs is theirs again.
        const fresh = sessionId();
        await turnAs(store, fresh, alice, conversation(2, label()));
        expect((await store.listSessions!({ userId: alice })).sessions.map((entry) => entry.sessionId)).toEqual([
          fresh,
        ]);
      },
    );
  });
}
