// What both backends share to call a store: its name in errors, the wrapping of its failures into
// `StoreError`s, and a lock wait that honours the run's abort signal.
import { AbortError } from "../errors/abort-error";
import { AgentCoreError } from "../errors/agent-core-error";
import { errorText } from "../errors/error-text";
import { StoreError } from "../errors/store-error";
import type { MemoryStore, SessionLockOptions } from "./memory-store";
import type { SessionQueue } from "./session-queue";
import { waitUnlessAborted } from "./wait-unless-aborted";

/** Runs one store call; a failure that is not already a typed agentcore error becomes a `StoreError` naming the store. */
export type StoreCall = <T>(
  operation: string,
  sessionId: string | undefined,
  describe: string,
  work: () => Promise<T>,
) => Promise<T>;

/** A store's name in errors: its class name, or "custom store" for a plain object. */
export function storeName(store: MemoryStore): string {
  const name = (store as { constructor?: { name?: string } }).constructor?.name;
  return name && name !== "Object" ? name : "custom store";
}

/** The call wrapper of the store named `name` (see {@link StoreCall}). */
export function storeCall(name: string): StoreCall {
  return async (operation, sessionId, describe, work) => {
    try {
      return await work();
    } catch (error) {
      if (AgentCoreError.isInstance(error)) throw error;
      throw new StoreError({
        store: name,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `${describe} (${name}): ${errorText(error)}`,
        cause: error,
      });
    }
  };
}

/** The error of a capability the store does not have (`entries`, `prune`, `factScopes`). */
export function unsupportedCall(name: string, operation: string): StoreError {
  return new StoreError({ store: name, operation, message: `The ${name} has no ${operation}().` });
}

/** Waits for a lock honouring the signal, even when the store ignores it; a lock it takes later is released. */
export async function lockUnlessAborted<T>(
  locking: Promise<T>,
  release: (taken: T) => (() => Promise<void>) | undefined,
  options: SessionLockOptions,
  sessionId: string,
): Promise<T> {
  try {
    return await waitUnlessAborted(locking, options.signal, sessionId);
  } catch (error) {
    if (AbortError.isInstance(error))
      locking.then(
        (taken) => release(taken)?.().catch(() => {}),
        () => {},
      );
    throw error;
  }
}

/** The description of a failed history read, for `StoreCall`. */
export const readingHistory = (sessionId: string) => `Could not read the history of session "${sessionId}"`;

/** Takes the store's own session lock through `call`, honouring the run's abort signal (both backends). */
export async function takeStoreLock(
  store: MemoryStore,
  call: StoreCall,
  sessionId: string,
  options: SessionLockOptions,
): Promise<(() => Promise<void>) | undefined> {
  const locking = call("lockSession", sessionId, `Could not lock session "${sessionId}"`, () =>
    store.lockSession!(sessionId, options),
  );
  return await lockUnlessAborted(locking, (release) => release, options, sessionId);
}

/** Runs `task` once no other task queued on `writes` runs on the session (`StoreBackend.exclusive`). */
export async function exclusiveOn<T>(writes: SessionQueue, sessionId: string, task: () => Promise<T>): Promise<T> {
  const release = await writes.acquire(sessionId, "queue");
  try {
    return await task();
  } finally {
    release();
  }
}
