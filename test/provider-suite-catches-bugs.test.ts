// testMemoryProvider must be able to fail: run it on deliberately broken providers in a separate
// vitest process and check that it fails exactly the tests that should catch them.
import { describe, expect, it } from "vitest";
import { runFixtureSuite } from "./helpers/fixture-suite";

describe("testMemoryProvider", () => {
  it("fails broken providers: an ignored limit, memories shared between users", () => {
    const run = runFixtureSuite("test/fixtures/vitest.provider-fixture.config.ts");
    expect(run.status).not.toBe(0);
    const { failed } = run;
    expect(failed.sort()).toEqual([
      "MemoryProvider contract: LeakyProvider never returns another user's memories, whatever session is asked for",
      "MemoryProvider contract: LeakyProvider user scope: a read sees the user's memories from all their sessions",
      "MemoryProvider contract: UnlimitedProvider returns at most `limit` records",
    ]);
  }, 60_000);
});
