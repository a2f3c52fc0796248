// SqliteMemoryStore's messages as rows: the (id, JSON) pairs it writes and the messages it reads back.
import type { AgentMessage } from "../../messages/agent-message";
import { encodeStoredMessageJson, parseStoredMessage } from "../stored-json";
import type { SqliteStatements } from "./sqlite-statements";

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

/**
 * Inserts messages at the session's next positions, skipping ids the session already holds (one
 * read of the last position, then one insert each). Returns the indexes of those inserted. Call it
 * inside the write's transaction.
 */
export function insertMessages(
  statements: SqliteStatements,
  sessionId: string,
  bodies: readonly (readonly [string | null, string])[],
): number[] {
  const inserted: number[] = [];
  if (bodies.length === 0) return inserted;
  let position = (statements.nextPosition.get(sessionId) as { next: number }).next;
  bodies.forEach(([id, body], index) => {
    if (statements.insertOrIgnore.run(sessionId, id, body, position).changes === 0) return;
    inserted.push(index);
    position++;
  });
  return inserted;
}
