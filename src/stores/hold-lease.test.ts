import { describe, expect, it } from "vitest";
import { holdLease } from "./hold-lease";

describe("holdLease", () => {
  it("retries a failed release until the delete lands, and is done only then", async () => {
    let releases = 0;
    let failures = 3;
    const release = holdLease({
      leaseMs: 30_000,
      renew: () => true,
      release: async () => {
        releases++;
        if (failures-- > 0) throw new Error("CLUSTERDOWN The cluster is down");
      },
    });
    const first = release();
    expect(release()).toBe(first); // one release, however often it is called
    await first;
    expect(releases).toBe(4);
    await release();
    expect(releases).toBe(4);
  });

  it("stops retrying once the lease has run out (the lock is free then)", async () => {
    let attempts = 0;
    await holdLease({
      leaseMs: 200,
      renew: () => true,
      release: () => {
        attempts++;
        throw new Error("Connection is closed.");
      },
    })();
    expect(attempts).toBeGreaterThan(1);
  });

  it("renews every period while the lease is ours and stops once it was taken over", async () => {
    let renewals = 0;
    const release = holdLease({
      leaseMs: 1_000,
      renewEveryMs: 20,
      renew: () => ++renewals < 3,
      release: () => {},
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(renewals).toBe(3);
    await release();
  });
});
