// SqliteMemoryStore's messages as rows: the (id, JSON) pairs it writes and the messages it reads back.
import type { AgentMessage } from "../../messages/agent-message";
import { encodeStoredMessageJson, parseStoredMessage } from "../stored-json";

const store = "SqliteMemoryStore";

/** The (id, JSON) rows of messages about to be written; a message JSON cannot encode is a `StoreError`. */
export function storedBodies(messages: AgentMessage[], operation: string, sessionId: string) {
  return messages.map(
    (message, index) =>
      [
        message.id ?? null,
        encodeStoredMessageJson(message, { store, operation, sessionId, record: `message ${index}` }),
      ] as const,
  );
}

/** Messages read back, oldest first; `first` is the position of the first (a bad body is a `StoreError` naming it). */
export function parseMessageRows(
  rows: readonly { body: string }[],
  operation: string,
  sessionId: string,
  first = 0,
): AgentMessage[] {
  return rows.map((row, index) =>
    parseStoredMessage(row.body, { store, operation, sessionId, record: `message ${first + index}` }),
  );
}
