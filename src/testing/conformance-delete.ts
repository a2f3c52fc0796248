// The deleteMessagesFrom tests of the store conformance suite (regenerate and edit), declared by testMemoryStore.
import type { MemoryStore } from "../stores/memory-store";
import { conversation, message, sessionId, summary, write } from "./conformance-fixtures";
import type { CapabilityTest } from "./conformance-optional";
import { expect } from "./vitest-api";

/** Expects `deleting` to reject with a `MessageNotFoundError` naming the session and the id. */
async function expectNotFound(deleting: Promise<unknown>, session: string, messageId: string): Promise<void> {
  const error = await deleting.then(
    () => new Error(`deleteMessagesFrom("${messageId}") resolved: an unknown id must be a MessageNotFoundError`),
    (caught: unknown) => caught,
  );
  expect(error).toMatchObject({ name: "MessageNotFoundError", sessionId: session, messageId });
}

/** What the store's optional readers say about a session's size, next to getMessages. */
async function sizes(store: MemoryStore, id: string): Promise<number[]> {
  const counts = [(await store.getMessages(id)).length];
  if (store.getMessageTail) counts.push((await store.getMessageTail(id, 2)).total);
  if (store.getSession) counts.push((await store.getSession(id))?.messageCount ?? 0);
  return counts;
}

/** Declares the tests of `deleteMessagesFrom`, each through `capability`. */
export function describeDeleteMessagesFrom(
  describe: (title: string, body: () => void) => void,
  capability: CapabilityTest,
): void {
  describe("deleteMessagesFrom (optional)", () => {
    capability(
      ["deleteMessagesFrom"],
      "deletes from the message on, keeps the rest and other sessions, and appends after the cut",
      async (store) => {
        const [id, other] = [sessionId(), sessionId()];
        const messages = conversation(6);
        await write(store, id, messages);
        await write(store, other, messages);
        await store.deleteMessagesFrom!(id, "message-3");
        expect(await store.getMessages(id)).toEqual(messages.slice(0, 3));
        expect(new Set(await sizes(store, id))).toEqual(new Set([3]));
        if (store.getMessageTail) expect((await store.getMessageTail(id, 2)).messages).toEqual(messages.slice(1, 3));
        expect(await store.getMessages(other)).toEqual(messages);
        // A deleted id is free again: appending it (an edit's new message) stores it once, after the cut.
        const again = [messages[3]!, message("new answer", "new-answer", "assistant")];
        await write(store, id, again);
        await write(store, id, again);
        expect(await store.getMessages(id)).toEqual([...messages.slice(0, 3), ...again]);
        await store.deleteMessagesFrom!(id, "message-0");
        expect(await store.getMessages(id)).toEqual([]);
        await write(store, id, conversation(2, "fresh"));
        expect(await store.getMessages(id)).toEqual(conversation(2, "fresh"));
        await store.clearMessages(id);
        await store.clearMessages(other);
      },
    );

    capability(
      ["deleteMessagesFrom"],
      "rejects an unknown id with a MessageNotFoundError and deletes nothing",
      async (store) => {
        const [id, other] = [sessionId(), sessionId()];
        await write(store, id, conversation(4));
        await write(store, other, [message("elsewhere", "only-in-other")]);
        await expectNotFound(store.deleteMessagesFrom!(id, "no-such-message"), id, "no-such-message");
        await expectNotFound(store.deleteMessagesFrom!(id, "only-in-other"), id, "only-in-other");
        const unknown = sessionId();
        await expectNotFound(store.deleteMessagesFrom!(unknown, "message-0"), unknown, "message-0");
        expect(await store.getMessages(id)).toEqual(conversation(4));
        expect(await store.getMessages(other)).toEqual([message("elsewhere", "only-in-other")]);
        expect(await store.getMessages(unknown)).toEqual([]);
        await store.clearMessages(id);
        await store.clearMessages(other);
      },
    );

    capability(
      ["deleteMessagesFrom", "getSummaries", "saveSummary"],
      "drops the summaries that cover a deleted message and keeps the others",
      async (store) => {
        const id = sessionId();
        await write(store, id, conversation(8));
        const [first, second] = [summary("s4", "covers 4", 4), summary("s6", "covers 6", 6)];
        await store.saveSummary!(id, first);
        await store.saveSummary!(id, second);
        await store.deleteMessagesFrom!(id, "message-6");
        expect(await store.getSummaries!(id)).toEqual([first, second]);
        await store.deleteMessagesFrom!(id, "message-5");
        expect(await store.getSummaries!(id)).toEqual([first]);
        await store.saveSummary!(id, second); // its id is free again
        expect(await store.getSummaries!(id)).toEqual([first, second]);
        await store.deleteMessagesFrom!(id, "message-2");
        expect(await store.getSummaries!(id)).toEqual([]);
        expect(await store.getMessages(id)).toEqual(conversation(2));
        await store.clearMessages(id);
      },
    );
  });
}
