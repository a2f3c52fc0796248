import { expect } from "vitest";
import { SessionBusyError } from "../../errors/session-busy-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { AgentMessage } from "../../messages/agent-message";
import type { ContextReport } from "../context-report";
import type { Fact, MemoryStore, SummaryRecord } from "../memory-store";
import { builtInPartsOf } from "../built-in-backend";
import { backendOf } from "../backend-of";

const message = (id: string, role: "user" | "assistant" = "user"): AgentMessage => ({
  id,
  role,
  content: `text of ${id}`,
});

/** A context report of session "s", as a run records one per model call. */
const report = (id: string): ContextReport => ({
  id,
  sessionId: "s",
  runId: `run-${id}`,
  step: 1,
  createdAt: 1_700_000_000_000,
  model: "mock/model",
  strategy: "full",
  window: ["b-user"],
  leftOut: [],
  unreadCount: 0,
  facts: [],
  recalled: [],
  tokens: { system: 0, facts: 0, summary: 0, recalled: 0, window: 5, total: 5 },
});
const reportIds = async (store: MemoryStore) => (await store.getContextReports!("s")).map((stored) => stored.id);

/** A summary of session "s" covering its first message, as the summary strategy saves one. */
const summary = (id: string): SummaryRecord => ({
  id,
  content: `summary ${id}`,
  fromMessageId: "b-user",
  toMessageId: "b-user",
  messageCount: 1,
  model: "mock/summarizer",
  createdAt: 1_700_000_000_000,
});
const summaryIds = async (store: MemoryStore) => (await store.getSummaries!("s")).map((stored) => stored.id);
/** The metadata `updateSession` records: the agent name and tags, as `getSession` reads them back. */
const metadataOf = async (store: MemoryStore) => {
  const entry = await store.getSession!("s");
  return { agentName: entry?.agentName, tags: entry?.tags };
};

/** A fact as a run's `remember_fact` writes one. */
const fact = (key: string, value: string): Fact => ({ key, value, createdAt: 1_700_000_000_000, updatedAt: 1 });
/** The facts of a scope as `key=value`, sorted. */
const factsOf = async (store: MemoryStore, scopeId: string) =>
  ((await store.getFacts(scopeId)) as Fact[]).map((stored) => `${stored.key}=${stored.value}`).sort();

async function expectLockLost(write: Promise<unknown>, operation: string): Promise<void> {
  const error = await write.then(
    () => new Error("the late write was accepted"),
    (caught: unknown) => caught,
  );
  expect(SessionLockLostError.isInstance(error) && [error.name, error.sessionId, error.operation]).toEqual([
    "SessionLockLostError",
    "s",
    operation,
  ]);
  expect((error as Error).message).toMatch(/lock on session "s" was lost/);
}

/**
 * A late writer is fenced: `stale` (a store whose `lockLeaseMs` is short, a few hundred ms) takes
 * session "s" and stalls past its lease; `next` (another instance on the same data) takes the
 * session and stores its turn; then every write of `stale` under its lost lock (a plain append,
 * `setMessages`, the folded append-and-release when the store has it, `deleteMessagesFrom` and
 * its delete-and-append, the context report a run saves after each model call, the summary the
 * summary strategy saves, the session's metadata, and the facts a run sets and deletes naming
 * session "s", in the session's scope and in a user's, through the store backend as the memory
 * tools write them) is refused with a `SessionLockLostError` and writes nothing; the history,
 * summaries, metadata, reports and facts are the new holder's only, and
 * the stale release does not free the new holder's lock. Once `next` releases, `stale` can lock
 * again and write, and with no lock held (outside a run) it writes unfenced, as it writes facts
 * naming a session it never locked.
 *
 * `takeOver` is how `next` takes the session from the stalled holder: by default it waits until
 * the stale lease runs out; a store whose renewals keep a short lease alive (PostgreSQL's come
 * every third of it) or whose lock is a file expires it by hand first.
 */
export async function expectLateWriterFenced(
  stale: MemoryStore,
  next: MemoryStore,
  takeOver: () => Promise<() => Promise<void>> = () => next.lockSession!("s", { timeoutMs: 20_000 }),
): Promise<void> {
  const releaseStale = await stale.lockSession!("s", { timeoutMs: 0 });
  // The stale holder stalls (a GC pause, a SIGSTOP): `next` takes the session once its lease ran out.
  const releaseNext = await takeOver();
  const turnOfNext = [message("b-user"), message("b-answer", "assistant")];
  await next.appendMessages!("s", turnOfNext);
  await next.saveContextReport!("s", report("b-report"));
  await next.saveSummary!("s", summary("b-summary"));
  await next.updateSession!("s", { agentName: "next", tags: ["b"] });
  const facts = { stale: backendOf(stale), next: backendOf(next) };
  await facts.next.setFact("session:s", fact("lang", "b"), "s");
  await facts.next.setFact("user:u", fact("name", "b"), "s");
  await facts.next.setFact("user:u", fact("city", "b"), "s");
  // The facts the stale run's memory tools set and delete, whatever their scope: fenced by its lock on "s".
  await expectLockLost(facts.stale.setFact("session:s", fact("lang", "a"), "s"), "setFact");
  await expectLockLost(facts.stale.setFact("user:u", fact("name", "a"), "s"), "setFact");
  await expectLockLost(facts.stale.deleteFact("session:s", "lang", "s"), "deleteFact");
  await expectLockLost(facts.stale.deleteFact("user:u", "city", "s"), "deleteFact");
  expect([await factsOf(next, "session:s"), await factsOf(next, "user:u")]).toEqual([["lang=b"], ["city=b", "name=b"]]);
  // The report of the stale run's model call, its summary and its metadata, fenced as its appends are.
  await expectLockLost(stale.saveContextReport!("s", report("a-report")), "saveContextReport");
  await expectLockLost(stale.saveSummary!("s", summary("a-summary")), "saveSummary");
  await expectLockLost(stale.updateSession!("s", { agentName: "stale", tags: ["a"] }), "updateSession");

  await expectLockLost(stale.appendMessages!("s", [message("a-answer", "assistant")]), "appendMessages");
  await expectLockLost(Promise.resolve(stale.setMessages("s", [message("a-rewrite")])), "setMessages");
  const folding = builtInPartsOf(stale)?.folding;
  if (folding) await expectLockLost(folding.appendMessagesAndUnlock("s", [message("a-last")]), "appendMessages");
  await expectLockLost(stale.deleteMessagesFrom!("s", "b-user"), "deleteMessagesFrom");
  const replace = builtInPartsOf(stale)?.replaceFrom;
  if (replace)
    await expectLockLost(replace("s", "b-answer", [message("a-regenerated", "assistant")]), "deleteMessagesFrom");
  expect(await next.getMessages("s")).toEqual(turnOfNext);
  expect(await reportIds(next)).toEqual(["b-report"]);
  expect(await summaryIds(next)).toEqual(["b-summary"]);
  expect(await metadataOf(next)).toEqual({ agentName: "next", tags: ["b"] });

  await releaseStale(); // must not free the new holder's lock
  await expect(stale.lockSession!("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
  await next.appendMessages!("s", [message("b-more")]); // the new holder still writes
  await releaseNext();

  const releaseAgain = await stale.lockSession!("s", { timeoutMs: 0 });
  await stale.appendMessages!("s", [message("a-later")]);
  await stale.saveContextReport!("s", report("a-later-report"));
  await stale.saveSummary!("s", summary("a-later-summary"));
  await stale.updateSession!("s", { agentName: "stale" });
  await facts.stale.setFact("user:u", fact("name", "a-later"), "s");
  await facts.stale.deleteFact("user:u", "city", "s");
  await releaseAgain();
  await facts.stale.setFact("session:s", fact("lang", "outside"), "s");
  await facts.stale.setFact("user:u", fact("other", "never-locked"), "other");
  // No lock held (outside a run): not fenced.
  await stale.saveContextReport!("s", report("outside-a-run"));
  await stale.saveSummary!("s", summary("outside-summary"));
  await stale.updateSession!("s", { tags: ["outside"] });
  expect((await next.getMessages("s")).map((stored) => stored.id)).toEqual(["b-user", "b-answer", "b-more", "a-later"]);
  expect(await reportIds(next)).toEqual(["b-report", "a-later-report", "outside-a-run"]);
  expect(await summaryIds(next)).toEqual(["b-summary", "a-later-summary", "outside-summary"]);
  expect(await metadataOf(next)).toEqual({ agentName: "stale", tags: ["outside"] });
  expect([await factsOf(next, "session:s"), await factsOf(next, "user:u")]).toEqual([
    ["lang=outside"],
    ["name=a-later", "other=never-locked"],
  ]);
}
