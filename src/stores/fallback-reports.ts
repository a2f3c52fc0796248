import {
  checkContextReport,
  contextReportCount,
  pushContextReport,
  type ContextReport,
  type ContextReportReadOptions,
} from "./context-report";
import type { MemoryStore } from "./memory-store";
import type { StoreCall } from "./store-call";
import { newestSummaries } from "./summary-count";

/** Sessions whose reports a store without the capability keeps in this process, at most (the oldest session goes first). */
const MAX_LOCAL_SESSIONS = 1_000;

/** The fallback backend's context-report calls: the store's own, or kept in this process. */
export interface FallbackReports {
  readonly native: boolean;
  save(sessionId: string, report: ContextReport): Promise<void>;
  get(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]>;
  /** Forgets the reports kept in this process for a session (its history was cleared). */
  forget(sessionId: string): void;
}

/**
 * Context reports through a store: `saveContextReport` / `getContextReports` when it has both (`native`),
 * otherwise kept in this process, bounded per session and in sessions (diagnostics: lost on
 * restart, never a message). `call` wraps each store call into the backend's errors.
 */
export function fallbackReports(store: MemoryStore, name: string, call: StoreCall, native: boolean): FallbackReports {
  const local = new Map<string, ContextReport[]>();
  return {
    native,
    save: async (sessionId, report) => {
      checkContextReport(sessionId, report, name);
      if (native) {
        return await call(
          "saveContextReport",
          sessionId,
          `Could not save a context report of session "${sessionId}"`,
          () => store.saveContextReport!(sessionId, report),
        );
      }
      const reports = local.get(sessionId) ?? [];
      local.delete(sessionId);
      local.set(sessionId, reports);
      pushContextReport(reports, structuredClone(report));
      if (local.size > MAX_LOCAL_SESSIONS) local.delete(local.keys().next().value!);
    },
    get: async (sessionId, options) => {
      const count = contextReportCount(options, name);
      if (!native) return structuredClone(newestSummaries(local.get(sessionId) ?? [], count));
      const read = () =>
        count === Infinity ? store.getContextReports!(sessionId) : store.getContextReports!(sessionId, { last: count });
      const reports = await call(
        "getContextReports",
        sessionId,
        `Could not read the context reports of session "${sessionId}"`,
        read,
      );
      return newestSummaries(reports ?? [], count);
    },
    forget: (sessionId) => {
      local.delete(sessionId);
    },
  };
}
