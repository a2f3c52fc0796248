import { errorText } from "../errors/error-text";
import { StoreError } from "../errors/store-error";
import type { AgentMessage } from "../messages/agent-message";
import { decodeStoredMessage } from "../messages/stored-encoding";

/**
 * Parses one JSON record a store read back. A record that does not parse is a `StoreError`
 * naming the store, the session and the record, never a crash three calls later.
 */
export function parseStoredJson<T>(
  text: string,
  where: { store: string; operation: string; sessionId?: string; record: string },
): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new StoreError({
      store: where.store,
      operation: where.operation,
      ...(where.sessionId === undefined ? {} : { sessionId: where.sessionId }),
      message: `The ${where.store} holds a record that is not valid JSON (${where.record}${where.sessionId === undefined ? "" : ` of session "${where.sessionId}"`}): ${errorText(error)}`,
      cause: error,
    });
  }
}

/**
 * Parses one stored message (`stringifyStoredMessage` wrote it): JSON, then the stored encoding of
 * bytes and URLs undone (`messages/stored-encoding.ts`). A record that is not JSON is a `StoreError`.
 */
export function parseStoredMessage<T = AgentMessage>(
  text: string,
  where: { store: string; operation: string; sessionId?: string; record: string },
): T {
  return decodeStoredMessage(parseStoredJson<T>(text, where));
}
