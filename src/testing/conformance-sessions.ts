// The session-ownership and listing tests of the store conformance suite, declared by testMemoryStore:
// they run when the store has `listSessions` (a store that lists a user's sessions records owners).
import { SessionOwnershipError } from "../errors/session-ownership-error";
import { backendOf } from "../stores/backend-of";
import type { MemoryStore, SessionEntry } from "../stores/memory-store";
import { conversation, message, sessionId } from "./conformance-fixtures";
import type { CapabilityTest } from "./conformance-optional";
import { expect } from "./vitest-api";

/** Opens a run's turn for `userId` (what the agent does), appends a turn and releases it. */
async function runAs(store: MemoryStore, session: string, userId: string | undefined, label: string): Promise<void> {
  const turn = await backendOf(store).openTurn(session, {
    timeoutMs: 5_000,
    tailLimit: 4,
    ...(userId === undefined ? {} : { userId }),
  });
  try {
    await turn.tail();
    await turn.append(conversation(2, `${label}-${Math.random().toString(36).slice(2)}`), { last: true });
  } finally {
    await turn.release();
  }
}

/** Resolves once the clock has moved past `since`, so the next write is strictly newer. */
async function clockPast(since: number): Promise<void> {
  while (Date.now() <= since + 1) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Listing order: accessedAt descending, then sessionId descending. */
function expectListingOrder(sessions: SessionEntry[]): void {
  for (let index = 1; index < sessions.length; index++) {
    const [before, after] = [sessions[index - 1]!, sessions[index]!];
    const ordered =
      before.accessedAt > after.accessedAt ||
      (before.accessedAt === after.accessedAt && before.sessionId > after.sessionId);
    expect(ordered, `${before.sessionId} (${before.accessedAt}) before ${after.sessionId} (${after.accessedAt})`).toBe(
      true,
    );
  }
}

/** Every page of a user's sessions, `between` run after each page but the last. */
async function walk(
  store: MemoryStore,
  userId: string,
  limit: number,
  between: (page: number) => Promise<void> = async () => {},
): Promise<SessionEntry[]> {
  const seen: SessionEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const result = await store.listSessions!({ userId, limit, ...(cursor === undefined ? {} : { cursor }) });
    expect(result.sessions.length).toBeLessThanOrEqual(limit);
    expectListingOrder(result.sessions);
    seen.push(...result.sessions);
    if (result.nextCursor === undefined) return seen;
    expect(result.sessions).toHaveLength(limit);
    cursor = result.nextCursor;
    await between(page);
  }
  throw new Error("listSessions never ended");
}

/** Declares the ownership and listing tests through `capability`. */
export function describeSessionOwnership(
  describe: (title: string, body: () => void) => void,
  capability: CapabilityTest,
): void {
  describe("sessions owned by users, listSessions (optional)", () => {
    capability(["listSessions"], "lists a user's sessions newest first, with their owner", async (store) => {
      const user = sessionId();
      const [a, b, c] = [sessionId(), sessionId(), sessionId()];
      for (const id of [a, b, c]) {
        await runAs(store, id, user, id);
        await clockPast(Date.now());
      }
      const first = await store.listSessions!({ userId: user });
      expect(first.nextCursor).toBeUndefined();
      expect(first.sessions.map((entry) => entry.sessionId)).toEqual([c, b, a]);
      expect(first.sessions.every((entry) => entry.userId === user && entry.messageCount === 2)).toBe(true);
      expect((await store.getSession!(a))?.userId).toBe(user);
      // A write moves a session to the front.
      await runAs(store, a, user, "again");
      expect((await store.listSessions!({ userId: user })).sessions.map((entry) => entry.sessionId)).toEqual([a, c, b]);
      expect(await store.listSessions!({ userId: sessionId() })).toEqual({ sessions: [] });
    });

    capability(["listSessions"], "keeps users apart; an ownerless session is listed for nobody", async (store) => {
      const [alice, bob] = [sessionId(), sessionId()];
      const [aliceSession, bobSession, ownerless] = [sessionId(), sessionId(), sessionId()];
      await runAs(store, aliceSession, alice, "alice");
      await runAs(store, bobSession, bob, "bob");
      await runAs(store, ownerless, undefined, "nobody");
      // A later run with a userId does not claim a session created without one.
      await runAs(store, ownerless, alice, "alice-later");
      const ids = async (userId: string) =>
        (await store.listSessions!({ userId })).sessions.map((entry) => entry.sessionId);
      expect(await ids(alice)).toEqual([aliceSession]);
      expect(await ids(bob)).toEqual([bobSession]);
      expect((await store.getSession!(ownerless))?.userId).toBeUndefined();
      expect(await store.getMessages(ownerless)).toHaveLength(4);
    });

    capability(["listSessions"], "refuses a run on another user's session before reading or storing", async (store) => {
      const [alice, bob, session] = [sessionId(), sessionId(), sessionId()];
      await runAs(store, session, alice, "alice");
      const before = await store.getMessages(session);
      const refused = await runAs(store, session, bob, "bob").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(SessionOwnershipError.isInstance(refused), String(refused)).toBe(true);
      expect(refused).toMatchObject({ sessionId: session, userId: bob });
      expect(await store.getMessages(session)).toEqual(before);
      // The refused run left the session free: its owner runs on it again at once.
      await runAs(store, session, alice, "alice-again");
      expect(await store.getMessages(session)).toHaveLength(4);
      expect((await store.listSessions!({ userId: bob })).sessions).toEqual([]);
    });

    capability(["listSessions"], "exactly one of two users creating one session owns it", async (store) => {
      const session = sessionId();
      const users = [sessionId(), sessionId()];
      const outcomes = await Promise.allSettled(
        users.map((user) =>
          backendOf(store)
            .claimSession(session, user)
            .then(() => user),
        ),
      );
      const owners = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      expect(owners).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
      expect(SessionOwnershipError.isInstance(refused.reason), String(refused.reason)).toBe(true);
      expect((await store.getSession!(session))?.userId).toBe(owners[0]);
    });

    capability(["listSessions"], "pages by cursor while sessions are written", async (store) => {
      const user = sessionId();
      const sessions = Array.from({ length: 13 }, () => sessionId());
      for (const id of sessions) await runAs(store, id, user, id);
      const listed = await walk(store, user, 13);
      const order = listed.map((entry) => entry.sessionId);
      expect(new Set(order)).toEqual(new Set(sessions));
      // Walk in pages of 4; after each page, write one session already returned and one not yet returned.
      const touched = new Set<string>();
      const walked = await walk(store, user, 4, async (page) => {
        const returned = order.slice(0, (page + 1) * 4);
        const ahead = order.slice((page + 1) * 4);
        for (const id of [returned[page], ahead[ahead.length - 1]]) {
          if (id === undefined) continue;
          touched.add(id);
          await store.appendMessages!(id, [message(`touch ${page}`, `touch-${page}-${id}`)]);
        }
      });
      const ids = walked.map((entry) => entry.sessionId);
      expect(new Set(ids).size, "no session twice on one walk").toBe(ids.length);
      for (const id of sessions) if (!touched.has(id)) expect(ids, `${id} was skipped`).toContain(id);
      // Concurrent writers and a walk: still no session twice.
      const writes = Promise.all(
        sessions.map((id, index) => store.appendMessages!(id, [message(`late ${index}`, `late-${index}`)])),
      );
      const during = (await Promise.all([walk(store, user, 3), writes]))[0].map((entry) => entry.sessionId);
      expect(new Set(during).size).toBe(during.length);
    });

    capability(["listSessions"], "refuses a bad limit or cursor", async (store) => {
      const userId = sessionId();
      for (const limit of [0, -1, 1.5, 1_001])
        await expect(store.listSessions!({ userId, limit })).rejects.toThrow(/limit/);
      await expect(store.listSessions!({ userId, cursor: "not a cursor" })).rejects.toThrow(/cursor/);
    });
  });
}
