/** A new message (or run) id. */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}
