import type { MemoryScope } from "./memory-provider";

/**
 * The scope a read may see, or undefined when it has nothing to scope by (never "everything").
 * User scope: the userId's memories, else the session's. Session scope: the session's memories,
 * narrowed to the userId when one is given.
 */
export function readScope(scope: "session" | "user", options: MemoryScope): MemoryScope | undefined {
  if (scope === "user" && options.userId !== undefined) return { userId: options.userId };
  if (options.sessionId === undefined) return undefined;
  return { sessionId: options.sessionId, ...(options.userId !== undefined ? { userId: options.userId } : {}) };
}

/**
 * The scope `clear` and `entries` apply to: what was given, read as above; everything without
 * options. A string is a session id (the AgentLIB document's `clear(sessionId)`).
 */
export function listScope(scope: "session" | "user", given?: MemoryScope | string): MemoryScope {
  if (given === undefined || given === null) return {};
  const options = typeof given === "string" ? { sessionId: given } : given;
  const read = readScope(scope, options);
  if (read) return read;
  return options.userId !== undefined ? { userId: options.userId } : {};
}
