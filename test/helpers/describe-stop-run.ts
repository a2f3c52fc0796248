// The stop checks (expect-stop-run.ts) as one describe block per store.
import { afterAll, describe, it } from "vitest";
import {
  expectStopAsTurnEndsIsHarmless,
  expectStopKeepsPartialAnswer,
  expectStopWithoutRunIsNoop,
  type StopPair,
} from "./expect-stop-run";

/**
 * Runs the stop checks on pairs of store objects `pair()` makes (two objects on one database: the
 * cross-instance path), each check on its own session; `close` after all.
 */
export function describeStopRun(name: string, pair: () => StopPair | Promise<StopPair>, close?: () => Promise<void>) {
  describe(`${name}: a stop from a second store object`, () => {
    if (close) afterAll(close);
    const session = (label: string) => `stop-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

    it("stores the text so far marked stopped, aborts the model call and frees the session at once", async () => {
      await expectStopKeepsPartialAnswer(await pair(), session("partial"));
    });

    it("does nothing without a running turn (the next run is not stopped)", async () => {
      await expectStopWithoutRunIsNoop(await pair(), session("idle"));
    });

    it("a stop as the turn ends stores the answer once", async () => {
      await expectStopAsTurnEndsIsHarmless(await pair(), session("end"));
    });
  });
}
