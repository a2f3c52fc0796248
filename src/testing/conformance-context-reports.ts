// The context-report tests of the store conformance suite, declared by testMemoryStore.
import { MAX_CONTEXT_REPORTS, type ContextReport } from "../stores/context-report";
import type { CapabilityTest } from "./conformance-optional";
import { conversation, sessionId, write } from "./conformance-fixtures";
import { expect } from "./vitest-api";

/** A context report as the agent records it (ids and keys, no message bodies, fact values or summary text). */
export function contextReport(id: string, session: string, step = 1): ContextReport {
  return {
    id,
    sessionId: session,
    runId: `run-${id}`,
    step,
    createdAt: 1_700_000_000_000 + step,
    model: "mock/model",
    strategy: "token_window",
    window: ["message-2", "message-3"],
    leftOut: [
      { messageId: "message-0", role: "user", reason: "token-budget" },
      { messageId: "message-1", role: "assistant", reason: "summary" },
    ],
    unreadCount: 0,
    summaryId: "summary-1",
    providedContext: "Earlier: the user said <script>alert(1)</script> 🙂",
    facts: [{ key: "name" }],
    recalled: [{ id: "m1", content: "likes tea", score: 0.82 }],
    tokens: { system: 10, facts: 8, summary: 12, recalled: 9, window: 40, total: 79, budget: 60 },
    usage: { inputTokens: 81, outputTokens: 5, totalTokens: 86 },
    finishReason: "stop",
  };
}

/** Declares the context-report tests through `capability`. */
export function describeContextReports(
  describe: (title: string, body: () => void) => void,
  capability: CapabilityTest,
): void {
  const methods = ["saveContextReport", "getContextReports"] as const;
  describe("context reports (optional)", () => {
    capability(
      [...methods],
      "keeps reports in order, idempotent by id, reads the newest with { last }, cleared with the session",
      async (store) => {
        const id = sessionId();
        expect(await store.getContextReports!(id)).toEqual([]);
        await write(store, id, conversation(4));
        const reports = [1, 2, 3].map((step) => contextReport(`r${step}-${id}`, id, step));
        for (const report of reports) await store.saveContextReport!(id, report);
        await store.saveContextReport!(id, reports[1]!); // a retried save
        expect(await store.getContextReports!(id)).toEqual(reports);
        expect(await store.getContextReports!(id, { last: 2 })).toEqual(reports.slice(1));
        expect(await store.getContextReports!(id, { last: 0 })).toEqual([]);
        expect(await store.getContextReports!(sessionId())).toEqual([]);
        await expect(store.getContextReports!(id, { last: -1 })).rejects.toMatchObject({
          name: "InvalidArgumentError",
        });
        await store.clearMessages(id);
        expect(await store.getContextReports!(id)).toEqual([]);
      },
    );

    capability([...methods], `keeps at most ${MAX_CONTEXT_REPORTS} reports per session, the newest`, async (store) => {
      const id = sessionId();
      await write(store, id, conversation(2));
      const count = MAX_CONTEXT_REPORTS + 5;
      for (let step = 1; step <= count; step++) await store.saveContextReport!(id, contextReport(`r${step}`, id, step));
      const kept = await store.getContextReports!(id);
      expect(kept.map((report) => report.step)).toEqual(
        Array.from({ length: MAX_CONTEXT_REPORTS }, (_, index) => index + 6),
      );
      await store.clearMessages(id);
    });

    capability([...methods, "prune"], "prunes reports with their session", async (store) => {
      const id = sessionId();
      await write(store, id, conversation(2));
      await store.saveContextReport!(id, contextReport(`r-${id}`, id));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await store.prune!({ olderThan: Date.now() })).toContain(id);
      expect(await store.getContextReports!(id)).toEqual([]);
      // A session written again later starts without the old reports.
      await write(store, id, conversation(2));
      expect(await store.getContextReports!(id)).toEqual([]);
      await store.clearMessages(id);
    });
  });
}
