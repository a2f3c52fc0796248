import { expect } from "vitest";
import { AbortError } from "../../errors/abort-error";
import type { MemoryStore } from "../memory-store";

/**
 * While `first` holds session "s", a `lockSession` of `second` (another instance on the same
 * data) rejects with an `AbortError` once its signal aborts, before the holder releases, and
 * leaves no lock behind.
 */
export async function expectLockWaitAborts(first: MemoryStore, second: MemoryStore): Promise<void> {
  const release = await first.lockSession!("s", { timeoutMs: 0 });
  const controller = new AbortController();
  const waiting = second.lockSession!("s", { timeoutMs: 60_000, signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  await expect(waiting).rejects.toSatisfy(AbortError.isInstance); // the holder has not released
  await release();
  await (await second.lockSession!("s", { timeoutMs: 0 }))();
}
