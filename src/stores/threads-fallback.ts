// What the fallback backend answers for a store without the thread methods (`getMessageRange`,
// `getUsage`, `deleteUserData`, a generated title): shared by both backends, so a built-in store
// that lacks one of them yet is served the same way as a user's store.
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { AgentMessage } from "../messages/agent-message";
import type { MemoryStore, SessionEntry } from "./memory-store";
import type { StoreBackend, StoreCapabilities } from "./store-backend";
import type { StoreCall } from "./store-call";
import { messageRange } from "./tail-limit";
import { checkUsageQuery, type UsageQuery, type UsageTotals, type UserDataDeletion } from "./usage-totals";

type ThreadCalls = Pick<StoreBackend, "getMessageRange" | "getUsage" | "deleteUserData" | "titleSession">;

/** The thread methods of a backend over `store`: the store's own where it has them, else the fallbacks. */
export function threadCalls(
  store: MemoryStore,
  name: string,
  call: StoreCall,
  session: { getSession(sessionId: string): Promise<SessionEntry | undefined> },
  /** What the store has, as its backend found it (the fallback backend is the one place that probes). */
  capabilities: Pick<
    StoreCapabilities,
    "getMessageRange" | "usage" | "deleteUserData" | "getSession" | "updateSession"
  >,
  titleNatively?: (sessionId: string, title: string, usage: UsageTotals | undefined) => Promise<boolean>,
): ThreadCalls {
  return {
    getMessageRange: async (sessionId: string, start: number, end: number): Promise<AgentMessage[]> => {
      const range = messageRange(start, end, name);
      return await call(
        "getMessageRange",
        sessionId,
        `Could not read the messages of session "${sessionId}"`,
        async () => {
          if (capabilities.getMessageRange) return await store.getMessageRange!(sessionId, range.start, range.end);
          const messages = (await store.getMessages(sessionId)) ?? [];
          return messages.slice(range.start, range.end);
        },
      );
    },
    getUsage: async (query: UsageQuery): Promise<UsageTotals> => {
      checkUsageQuery(query);
      if (!capabilities.usage) throw unsupported(name, "getUsage", "getUsage({ sessionId } | { userId, since })");
      const about = "sessionId" in query ? query.sessionId : undefined;
      return await call("getUsage", about, "Could not read the usage ledger", () => store.getUsage!(query));
    },
    deleteUserData: async (userId: string): Promise<UserDataDeletion> => {
      if (typeof userId !== "string" || userId === "")
        throw unsupportedArgument("deleteUserData: userId must be a non-empty string.");
      if (!capabilities.deleteUserData) throw unsupported(name, "deleteUserData", "deleteUserData(userId)");
      return await call("deleteUserData", undefined, `Could not delete the data of user "${userId}"`, () =>
        store.deleteUserData!(userId),
      );
    },
    titleSession: async (sessionId: string, title: string, usage?: UsageTotals): Promise<boolean> => {
      const describe = `Could not record the title of session "${sessionId}"`;
      if (titleNatively)
        return await call("updateSession", sessionId, describe, () => titleNatively(sessionId, title, usage));
      // Read, then written: a title set in between by hand may be replaced (a user's store has no conditional write).
      if (!capabilities.getSession || !capabilities.updateSession) return false;
      const entry = await session.getSession(sessionId);
      if (!entry || entry.title !== undefined) return false;
      await call("updateSession", sessionId, describe, () => store.updateSession!(sessionId, { title }));
      return true;
    },
  };
}

function unsupported(name: string, feature: string, signature: string): UnsupportedRuntimeError {
  return new UnsupportedRuntimeError({
    feature,
    requirement: `a store with a ${feature} method`,
    message: `${name} has no ${feature} method. Use a built-in store, or give your store ${signature} (docs/threads.md).`,
  });
}

function unsupportedArgument(message: string): Error {
  return new InvalidArgumentError({ argument: "userId", message });
}
