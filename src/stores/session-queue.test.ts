import { describe, expect, it } from "vitest";
import { SessionQueue } from "./session-queue";
import { AbortError } from "../errors/abort-error";

/** How a promise settled, or "pending" if it has not yet (after the pending callbacks ran). */
async function state(promise: Promise<unknown>): Promise<"resolved" | "rejected" | "pending"> {
  let settled: "resolved" | "rejected" | "pending" = "pending";
  promise.then(
    () => (settled = "resolved"),
    () => (settled = "rejected"),
  );
  for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("SessionQueue and an abort while waiting", () => {
  it("a waiter aborted while the session is held rejects with AbortError at once; the queue stays consistent", async () => {
    const queue = new SessionQueue();
    const releaseHolder = await queue.acquire("s", "queue");
    const controller = new AbortController();
    const aborted = queue.acquire("s", "queue", controller.signal);
    const behind = queue.acquire("s", "queue");
    controller.abort();
    await expect(aborted).rejects.toSatisfy(AbortError.isInstance);
    // The holder still holds the session: neither the run queued behind nor a newcomer may start.
    const newcomer = queue.acquire("s", "queue");
    expect(await state(behind)).toBe("pending");
    expect(await state(newcomer)).toBe("pending");
    releaseHolder();
    const releaseBehind = await behind;
    expect(await state(newcomer)).toBe("pending");
    releaseBehind();
    (await newcomer)();
    // Nothing is left holding the session.
    expect(await state(queue.acquire("s", "reject"))).toBe("resolved");
  });

  it("an already aborted signal does not wait for the holder", async () => {
    const queue = new SessionQueue();
    const releaseHolder = await queue.acquire("s", "queue");
    await expect(queue.acquire("s", "queue", AbortSignal.abort())).rejects.toSatisfy(AbortError.isInstance);
    releaseHolder();
    (await queue.acquire("s", "reject"))();
  });
});
