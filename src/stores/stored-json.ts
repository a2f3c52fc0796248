import { errorText } from "../errors/error-text";
import { StoreError } from "../errors/store-error";
import type { AgentMessage } from "../messages/agent-message";
import { decodeStoredMessage, encodeStoredMessage } from "../messages/stored-encoding";

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
 * Encodes one record a store is about to write. A value JSON cannot encode (a BigInt, a cyclic
 * object) is a `StoreError` naming the store, the session and the record, raised before anything
 * is sent, so it fails only the write that holds it.
 */
export function encodeStoredJson(
  value: unknown,
  where: { store: string; operation: string; sessionId?: string; record: string },
): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new StoreError({
      store: where.store,
      operation: where.operation,
      ...(where.sessionId === undefined ? {} : { sessionId: where.sessionId }),
      message: `${where.record}${where.sessionId === undefined ? "" : ` of session "${where.sessionId}"`} cannot be stored as JSON by the ${where.store}: ${errorText(error)}`,
      cause: error,
    });
  }
}

/**
 * Parses one stored message (`encodeStoredMessageJson` wrote it): JSON, then the stored encoding of
 * bytes and URLs undone (`messages/stored-encoding.ts`). A record that is not JSON is a `StoreError`.
 */
export function parseStoredMessage<T = AgentMessage>(
  text: string,
  where: { store: string; operation: string; sessionId?: string; record: string },
): T {
  return decodeStoredMessage(parseStoredJson<T>(text, where));
}

/**
 * Encodes one message a store is about to write, in the stored encoding (`messages/stored-encoding.ts`):
 * bytes and URLs of content parts kept; a message JSON cannot encode is a `StoreError` (`encodeStoredJson`).
 */
export function encodeStoredMessageJson(
  message: AgentMessage,
  where: { store: string; operation: string; sessionId?: string; record: string },
): string {
  return encodeStoredJson(encodeStoredMessage(message), where);
}
