// A message JSON cannot encode (a BigInt or a cycle in a tool call's arguments, which a custom
// model or a caller writing to the store directly can produce) is refused by every store that
// writes JSON with the same StoreError: it names the operation, the session and the message, and
// nothing of the write is stored. Redis and SQLite used to throw the JSON engine's bare TypeError
// (now they encode through PostgreSQL's checked encoder, `encodeStoredMessageJson`).
// (InMemoryStore keeps message objects as they are, not JSON, and is not among them.)
import { describe, expect, it } from "vitest";
import { StoreError } from "../src/errors/store-error";
import type { AgentMessage } from "../src/messages/agent-message";
import { openStoreServers, persistentStores } from "./helpers/store-servers";

const stores = persistentStores(await openStoreServers("agentcore-unencodable", { postgresConnections: 4 }));

let counter = 0;

const cyclic: Record<string, unknown> = { name: "loop" };
cyclic.self = cyclic;
const unencodable: [string, Record<string, unknown>][] = [
  ["a BigInt", { count: 10n }],
  ["a cycle", cyclic],
];

const user = (id: string): AgentMessage => ({ id, role: "user", content: "hello" });
const call = (id: string, args: Record<string, unknown>): AgentMessage => ({
  id,
  role: "assistant",
  content: "",
  toolCalls: [{ id: `${id}-call`, name: "count", arguments: args }],
});

async function refusal(write: Promise<unknown>): Promise<unknown> {
  return write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe.each(stores)("%s: a message JSON cannot encode", (name, create) => {
  it.skipIf(!create).each(unencodable)(
    "with %s in its tool arguments is a StoreError naming it; nothing is stored",
    async (_what, args) => {
      const store = create!();
      const session = `unencodable-${counter++}`;
      await store.appendMessages(session, [user("u0")]);
      for (const [operation, write] of [
        ["appendMessages", () => store.appendMessages(session, [user("u1"), call("a1", args)])],
        ["setMessages", () => store.setMessages(session, [user("u1"), call("a1", args)])],
      ] as const) {
        const error = await refusal(write());
        expect(StoreError.isInstance(error) && [error.operation, error.sessionId]).toEqual([operation, session]);
        // The file store names the journal write; the others name the message.
        expect(String((error as Error).message)).toMatch(
          name === "FileMemoryStore"
            ? /failed during \w+ on .*(BigInt|circular)/
            : /message 1 .*cannot be stored as JSON/,
        );
        expect((await store.getMessages(session)).map((message) => message.id)).toEqual(["u0"]);
      }
      await store.clearMessages(session);
      await (store as { close?: () => Promise<void> }).close?.();
    },
  );
});
