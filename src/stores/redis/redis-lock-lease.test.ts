import { describe, expect, it } from "vitest";
import { holdLockLease } from "./redis-lock-lease";

describe("holdLockLease", () => {
  it("retries a failed release until the delete lands, and is done only then", async () => {
    const calls: number[] = [];
    let failures = 3;
    const release = holdLockLease(30_000, async (lease) => {
      calls.push(lease);
      if (lease === 0 && failures-- > 0) throw new Error("CLUSTERDOWN The cluster is down");
      return 1;
    });
    const first = release();
    expect(release()).toBe(first); // one release, however often it is called
    await first;
    expect(calls).toEqual([0, 0, 0, 0]);
    await release();
    expect(calls).toHaveLength(4);
  });

  it("stops retrying once the lease has run out (the lock is free then)", async () => {
    let attempts = 0;
    await holdLockLease(200, async () => {
      attempts++;
      throw new Error("Connection is closed.");
    })();
    expect(attempts).toBeGreaterThan(1);
  });
});
