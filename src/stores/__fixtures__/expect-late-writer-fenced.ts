import { expect } from "vitest";
import { SessionBusyError } from "../../errors/session-busy-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { AgentMessage } from "../../messages/agent-message";
import type { MemoryStore } from "../memory-store";
import { turnFoldingOf } from "../turn-folding";
import { replaceMessagesFromOf } from "../delete-messages-from";

const message = (id: string, role: "user" | "assistant" = "user"): AgentMessage => ({
  id,
  role,
  content: `text of ${id}`,
});

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
 * its delete-and-append) is refused with a
 * `SessionLockLostError` and writes nothing; the history is the new holder's turn only, and the
 * stale release does not free the new holder's lock. Once `next` releases, `stale` can lock again
 * and write.
 */
export async function expectLateWriterFenced(stale: MemoryStore, next: MemoryStore): Promise<void> {
  const releaseStale = await stale.lockSession!("s", { timeoutMs: 0 });
  // The stale holder stalls (a GC pause, a SIGSTOP): `next` waits until its lease runs out.
  const releaseNext = await next.lockSession!("s", { timeoutMs: 20_000 });
  const turnOfNext = [message("b-user"), message("b-answer", "assistant")];
  await next.appendMessages!("s", turnOfNext);

  await expectLockLost(stale.appendMessages!("s", [message("a-answer", "assistant")]), "appendMessages");
  await expectLockLost(Promise.resolve(stale.setMessages("s", [message("a-rewrite")])), "setMessages");
  const folding = turnFoldingOf(stale);
  if (folding) await expectLockLost(folding.appendMessagesAndUnlock("s", [message("a-last")]), "appendMessages");
  await expectLockLost(stale.deleteMessagesFrom!("s", "b-user"), "deleteMessagesFrom");
  const replace = replaceMessagesFromOf(stale);
  if (replace)
    await expectLockLost(replace("s", "b-answer", [message("a-regenerated", "assistant")]), "deleteMessagesFrom");
  expect(await next.getMessages("s")).toEqual(turnOfNext);

  await releaseStale(); // must not free the new holder's lock
  await expect(stale.lockSession!("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
  await next.appendMessages!("s", [message("b-more")]); // the new holder still writes
  await releaseNext();

  const releaseAgain = await stale.lockSession!("s", { timeoutMs: 0 });
  await stale.appendMessages!("s", [message("a-later")]);
  await releaseAgain();
  expect((await next.getMessages("s")).map((stored) => stored.id)).toEqual(["b-user", "b-answer", "b-more", "a-later"]);
}
